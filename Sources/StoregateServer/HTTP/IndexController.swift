import Hummingbird
import NIOCore

/// `GET /`: where a person who opens the server's address in a browser goes next.
struct IndexController: Sendable {
    func addRoutes(to router: Router<StoregateRequestContext>) {
        router.get("/") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: Self.text)))
        }
    }

    static let text = """
        Storegate: the App Store's server-side work for your apps.

        /console       the support console (sign in with the link `storegate user add` or `user link` prints)
        POST /rpc      the JSON-RPC 2.0 API, with a tenant API key: docs/API.md, api-spec/openrpc.json
                       (or call rpc.discover)
        /readyz        ready when the database is reachable and migrated; /healthz, /metrics

        Apple calls /apple/notifications/<token> and /apple/retention/<token>: the URLs `apps.get` gives.
        Documentation: README.md, docs/ in the repository.

        """
}
