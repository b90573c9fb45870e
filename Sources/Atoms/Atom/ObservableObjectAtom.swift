import Foundation
import Synchronization

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
    /// Creates the object. The object, created here or given by an override, is observed:
    /// watchers are updated after the changes it announces, once for any number announced
    /// before the update runs.
    var producer: AtomProducer<Produced> {
        AtomProducer { context in
            object(context: context.transactionContext)
        } manage: { object, context in
            let cancellable = observeChanges(of: object, delivering: MainActorTransfer(value: (context, object)))
            context.onTermination { cancellable.cancel() }
        }
    }
}

/// Subscribes to `objectWillChange` with a `@Sendable` callback formed outside the main actor
/// (the object may announce changes from any thread). `objectWillChange` fires before the
/// change, so the object is re-delivered on a later main-actor turn, when the change is in
/// place; changes announced while that delivery is pending join it (as upstream coalesces).
private func observeChanges<Object: AtomsObservableObject>(
    of object: Object,
    delivering transfer: MainActorTransfer<(AtomProducerContext<Object>, Object)>
) -> AtomsCancellable {
    let pending = PendingDelivery()
    return object.objectWillChange.sink { @Sendable _ in
        guard pending.schedule() else {
            return
        }
        Task { @MainActor in
            pending.clear()
            transfer.value.0.update(with: transfer.value.1)
        }
    }
}

/// Whether a delivery is scheduled and has not run yet; set from any thread.
final class PendingDelivery: Sendable {
    private let isScheduled = Mutex(false)

    /// Marks a delivery as scheduled; returns `false` when one already was.
    func schedule() -> Bool {
        isScheduled.withLock { isScheduled in
            defer { isScheduled = true }
            return !isScheduled
        }
    }

    /// Marks the scheduled delivery as running: later changes need a delivery of their own.
    func clear() {
        isScheduled.withLock { $0 = false }
    }
}
