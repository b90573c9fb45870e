/// Journal entries with a JSON form and a stable order.
protocol JSONOrdered {
    var json: String { get }
    static func precedes(_ lhs: Self, _ rhs: Self) -> Bool
}

extension EdgeEntry: JSONOrdered {}
extension SubscriptionEntry: JSONOrdered {}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
