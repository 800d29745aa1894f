import Hummingbird
import HummingbirdAuth
import Storegate

/// The console's request context, a child of the server's (`router.group("/console", context:)`): its core,
/// the person signed in, and forms decoded as a browser sends them (`application/x-www-form-urlencoded`),
/// a posted one at most 16 KiB. Generic over the server's context, which this module does not know.
struct ConsoleRequestContext<ParentContext: RequestContext>: ChildRequestContext, AuthRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The person signed in, their tenant and the session's CSRF token (hummingbird-auth's
    /// `AuthRequestContext`): set by `SessionMiddleware` from the session cookie; nil without one.
    var identity: ConsoleSession?

    init(context: ParentContext) {
        self.coreContext = context.coreContext
    }

    var requestDecoder: URLEncodedFormDecoder { URLEncodedFormDecoder() }

    var maxUploadSize: Int { 16 * 1024 }
}
