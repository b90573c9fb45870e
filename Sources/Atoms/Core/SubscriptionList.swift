/// A subscriber's watch of one node.
struct Subscription {
    /// Where the subscriber was created (shown in the dependency graph).
    let location: SourceLocation
    /// The subscriber, notified when the node changes. Held strongly: the subscriber's
    /// ``SubscriberLifetime`` removes the subscription when its context goes away.
    let subscriber: SubscriberState
}

/// The subscriptions of one node, at most one per subscriber, in the order they were made.
///
/// The first is stored inline and the others in an array searched linearly, rather than a
/// dictionary by subscriber: a node usually has one subscriber, and a few at most, for which a
/// scan beats hashing; and a dictionary (or an array) would allocate storage for every node a
/// context watches.
@MainActor
struct SubscriptionList: Sequence {
    private var first: Subscription?
    private var others: [Subscription] = []

    nonisolated init() {}

    /// Whether no subscriber watches the node.
    var isEmpty: Bool {
        first == nil
    }

    /// Whether the subscriber with this id watches the node.
    func contains(subscriberID: Int) -> Bool {
        first?.subscriber.id == subscriberID || position(of: subscriberID) != nil
    }

    /// Adds a subscription; returns false (changing nothing) when its subscriber already has one.
    mutating func insert(_ subscription: Subscription) -> Bool {
        guard let first else {
            first = subscription
            return true
        }
        guard first.subscriber.id != subscription.subscriber.id, position(of: subscription.subscriber.id) == nil else {
            return false
        }
        others.append(subscription)
        return true
    }

    /// Removes the subscription of the subscriber with this id; returns whether there was one.
    mutating func remove(subscriberID: Int) -> Bool {
        if first?.subscriber.id == subscriberID {
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
        for position in others.indices where others[position].subscriber.id == subscriberID {
            return position
        }
        return nil
    }

    nonisolated func makeIterator() -> Iterator {
        Iterator(first: first, others: others.makeIterator())
    }

    /// Yields the inline subscription, then the others.
    struct Iterator: IteratorProtocol {
        fileprivate var first: Subscription?
        fileprivate var others: IndexingIterator<[Subscription]>

        mutating func next() -> Subscription? {
            if let subscription = first {
                first = nil
                return subscription
            }
            return others.next()
        }
    }
}
