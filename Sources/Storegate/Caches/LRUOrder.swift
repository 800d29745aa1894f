/// Keys in the order they were last used, least recent first: use, remove and the least recent in
/// constant time (a doubly linked list in an array, with a free list).
struct LRUOrder<Key: Hashable> {
    private struct Node {
        var key: Key
        var previous: Int
        var next: Int
    }

    private var nodes: [Node] = []
    private var free: [Int] = []
    private var index: [Key: Int] = [:]
    /// The least recently used node, and the most; -1 when empty.
    private var head = -1
    private var tail = -1

    var count: Int { index.count }

    /// The least recently used key.
    var leastRecent: Key? { head < 0 ? nil : nodes[head].key }

    /// Marks `key` as used now, adding it when it is not there.
    mutating func use(_ key: Key) {
        if let at = index[key] {
            guard at != tail else { return }
            unlink(at)
            append(at)
            return
        }
        let at: Int
        if let reused = free.popLast() {
            nodes[reused] = Node(key: key, previous: -1, next: -1)
            at = reused
        } else {
            nodes.append(Node(key: key, previous: -1, next: -1))
            at = nodes.count - 1
        }
        index[key] = at
        append(at)
    }

    mutating func remove(_ key: Key) {
        guard let at = index.removeValue(forKey: key) else { return }
        unlink(at)
        free.append(at)
    }

    mutating func removeAll() {
        self = LRUOrder()
    }

    private mutating func unlink(_ at: Int) {
        let (previous, next) = (nodes[at].previous, nodes[at].next)
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
    }

    private mutating func append(_ at: Int) {
        nodes[at].previous = tail
        nodes[at].next = -1
        if tail >= 0 { nodes[tail].next = at } else { head = at }
        tail = at
    }
}
