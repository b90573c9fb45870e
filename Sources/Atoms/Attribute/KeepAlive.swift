/// An attribute that keeps an atom's value cached even when nothing watches it any more.
///
/// ## Example
/// ```swift
/// struct MasterDataAtom: ValueAtom, KeepAlive, Hashable {
///     func value(context: Context) -> MasterData { loadMasterData() }
/// }
/// ```
public protocol KeepAlive where Self: Atom {}
