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
        entries.contains { $0.subscriber.id == subscriberID }
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
        guard let position = entries.firstIndex(where: { $0.subscriber.id == subscriberID }) else {
            return false
        }
        entries.remove(at: position)
        return true
    }

    nonisolated func makeIterator() -> IndexingIterator<[Subscription]> {
        entries.makeIterator()
    }
}
