// Combine on Apple platforms, OpenCombine elsewhere: the same atom source compiles on both.
// On Linux `import Atoms` also brings OpenCombine's `ObservableObject`, `@Published` and
// publishers, so atom files need no platform-specific import.
#if canImport(Combine)
import Combine
/// The publisher protocol of the platform's Combine implementation.
public typealias AtomsPublisherProtocol = Combine.Publisher
/// The observable object protocol of the platform's Combine implementation.
public typealias AtomsObservableObject = Combine.ObservableObject
/// A subscription's cancellation token.
typealias AtomsCancellable = Combine.AnyCancellable
#else
@_exported import OpenCombine
/// The publisher protocol of the platform's Combine implementation.
public typealias AtomsPublisherProtocol = OpenCombine.Publisher
/// The observable object protocol of the platform's Combine implementation.
public typealias AtomsObservableObject = OpenCombine.ObservableObject
/// A subscription's cancellation token.
typealias AtomsCancellable = OpenCombine.AnyCancellable
#endif

/// Carries a main-actor value through a `@Sendable` callback that a publisher may call on
/// another thread; it is only unwrapped on the main actor.
struct MainActorTransfer<Value>: @unchecked Sendable {
    let value: Value
}
