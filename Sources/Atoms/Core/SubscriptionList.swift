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
/// An array searched linearly rather than a dictionary by subscriber: a node has one or a few
/// subscribers, for which a scan beats hashing, and a dictionary would allocate its storage for
/// every node a context watches.
@MainActor
struct SubscriptionList: Sequence {
    private var entries: [Subscription] = []

    nonisolated init() {}

    /// Whether no subscriber watches the node.
    var isEmpty: Bool {
        entries.isEmpty
    }

    /// Whether the subscriber with this id watches the node.
    func contains(subscriberID: Int) -> Bool {
        position(of: subscriberID) != nil
    }

    // A loop, not `firstIndex(where:)`: a main-actor closure passed to the standard library
    // checks at run time that it runs on the main actor, which costs more than the search.
    private func position(of subscriberID: Int) -> Int? {
        for position in entries.indices where entries[position].subscriber.id == subscriberID {
            return position
        }
        return nil
    }

    /// Adds a subscription; returns false (changing nothing) when its subscriber already has one.
    mutating func insert(_ subscription: Subscription) -> Bool {
        guard !contains(subscriberID: subscription.subscriber.id) else {
            return false
        }
        entries.append(subscription)
        return true
    }

    /// Removes the subscription of the subscriber with this id; returns whether there was one.
    mutating func remove(subscriberID: Int) -> Bool {
        guard let position = position(of: subscriberID) else {
            return false
        }
        entries.remove(at: position)
        return true
    }

    nonisolated func makeIterator() -> IndexingIterator<[Subscription]> {
        entries.makeIterator()
    }
}
