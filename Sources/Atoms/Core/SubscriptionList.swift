/// The subscribers watching one node, each once, in the order they subscribed. (The
/// subscriber holds where it was created, which is where its subscriptions are shown.)
///
/// The first is stored inline and the others in an array searched linearly, rather than a
/// dictionary by subscriber: a node usually has one subscriber, and a few at most, for which a
/// scan beats hashing; and a dictionary (or an array) would allocate storage for every node a
/// context watches.
@MainActor
struct SubscriptionList: Sequence {
    private var first: SubscriberState?
    private var others: [SubscriberState] = []

    nonisolated init() {}

    /// Whether no subscriber watches the node.
    var isEmpty: Bool {
        first == nil
    }

    /// Whether the subscriber with this id watches the node.
    func contains(subscriberID: Int) -> Bool {
        first?.id == subscriberID || position(of: subscriberID) != nil
    }

    /// Adds a subscriber; returns false (changing nothing) when it is already there.
    mutating func insert(_ subscriber: SubscriberState) -> Bool {
        guard let first else {
            first = subscriber
            return true
        }
        guard first.id != subscriber.id, position(of: subscriber.id) == nil else {
            return false
        }
        others.append(subscriber)
        return true
    }

    /// Removes the subscriber with this id; returns whether it was there.
    mutating func remove(subscriberID: Int) -> Bool {
        if first?.id == subscriberID {
            first = others.isEmpty ? nil : others.removeFirst()
            return true
        }
        guard let position = position(of: subscriberID) else {
            return false
        }
        others.remove(at: position)
        return true
    }

    // A loop, not `firstIndex(where:)`: a main-actor closure passed to the standard library
    // checks at run time that it runs on the main actor, which costs more than the search.
    private func position(of subscriberID: Int) -> Int? {
        for position in others.indices where others[position].id == subscriberID {
            return position
        }
        return nil
    }

    nonisolated func makeIterator() -> Iterator {
        Iterator(first: first, others: others.makeIterator())
    }

    /// Yields the inline subscriber, then the others.
    struct Iterator: IteratorProtocol {
        fileprivate var first: SubscriberState?
        fileprivate var others: IndexingIterator<[SubscriberState]>

        mutating func next() -> SubscriberState? {
            if let subscriber = first {
                first = nil
                return subscriber
            }
            return others.next()
        }
    }
}
