import Foundation

/// An atom that creates an observable object; watchers are notified whenever the object
/// announces a change (`objectWillChange`), once the change has been applied.
///
/// Uses Combine on Apple platforms and OpenCombine on Linux.
///
/// ## Example
/// ```swift
/// final class Contact: ObservableObject {
///     @Published var name = ""
/// }
///
/// struct ContactAtom: ObservableObjectAtom, Hashable {
///     func object(context: Context) -> Contact { Contact() }
/// }
/// ```
public protocol ObservableObjectAtom: Atom where Produced == ObjectType {
    /// The type of observable object the atom creates.
    associatedtype ObjectType: AtomsObservableObject

    /// Creates the object; atoms watched through `context` become dependencies.
    @MainActor
    func object(context: Context) -> ObjectType
}

public extension ObservableObjectAtom {
    /// Creates the object and re-delivers it after each change it announces.
    var producer: AtomProducer<Produced> {
        AtomProducer { context in
            let object = object(context: context.transactionContext)
            let cancellable = observeChanges(of: object, delivering: MainActorTransfer(value: (context, object)))
            context.onTermination { cancellable.cancel() }
            return object
        }
    }
}

/// Subscribes to `objectWillChange` with a `@Sendable` callback formed outside the main actor
/// (the object may announce changes from any thread). `objectWillChange` fires before the
/// change, so the object is re-delivered on a later main-actor turn, when the change is in place.
private func observeChanges<Object: AtomsObservableObject>(
    of object: Object,
    delivering transfer: MainActorTransfer<(AtomProducerContext<Object>, Object)>
) -> AtomsCancellable {
    object.objectWillChange.sink { @Sendable _ in
        Task { @MainActor in
            transfer.value.0.update(with: transfer.value.1)
        }
    }
}
