import Contract
import JSONRPC

/// What a method that deletes one thing answers.
@RPCObject struct Deleted {
    let deleted: Bool
}
