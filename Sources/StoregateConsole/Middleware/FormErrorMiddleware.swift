import Hummingbird

/// A query or body that is no form at all (a broken percent-escape, a field given twice) is the client's
/// error, 400: `URLEncodedFormDecoder` throws it as an error of its own, which would otherwise answer 500.
struct FormErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch is URLEncodedFormError {
            throw HTTPError(.badRequest, message: "This is not a form.")
        }
    }
}
