import Hummingbird
import HummingbirdAuth
import Storegate

/// What every action on a customer's page shares, once its session and CSRF token are checked: a role that
/// may act (`mayAct`, else 403), and the answer to a refusal: the customer's page with the reason, naming
/// the field, or for a failure at Apple what happened and what to try (`FailureMessage`).
struct CustomerActionMiddleware<ParentContext: RequestContext>: RouterMiddleware {
    typealias Context = ConsoleRequestContext<ParentContext>
    let routes: ConsoleRoutes<ParentContext>

    struct CustomerForm: Decodable {
        @Trimmed var customerId: String?
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let session = try context.requireIdentity()
        guard session.user.role.mayAct else {
            return routes.pages.message(
                "Not allowed", "Your role (\(session.user.role.rawValue)) can look but not act; ask an admin for the support role.", session: session,
                status: .forbidden)
        }
        do {
            return try await next(request, context)
        } catch let error as StoregateError {
            let customerId = try await request.decode(as: CustomerForm.self, context: context).customerId ?? ""
            return try await routes.customer(customerId, session, error: FailureMessage(error), status: ConsoleRoutes<ParentContext>.status(error))
        }
    }
}
