/// The two things a transaction can do to an atom's value, and the only two predicates that
/// decide them (docs/JOURNAL_FORMAT.md, "Written and changed"):
///
/// - *written*: the transaction has a value entry for the atom, whatever it holds: a whole
///   value, a delta, or `[id,"="]` (a value equal to the one before);
/// - *changed*: the transaction has a value entry for the atom other than `[id,"="]`: the
///   recorder found the new value different from the one before.
///
/// Creating and releasing an atom are graph changes, not writes: a command that also stops at
/// them (`blame`, `find`'s atom search, the adapter's data breakpoints) says so where it asks.
extension TransactionRecord {
    /// Whether this transaction wrote `atom` (an equal value included).
    package func wrote(_ atom: Int) -> Bool {
        values?.contains { $0.id == atom } == true
    }

    /// Whether this transaction wrote one of `atoms` (an equal value included).
    package func wrote(anyOf atoms: Set<Int>) -> Bool {
        values?.contains { atoms.contains($0.id) } == true
    }

    /// Whether this transaction changed `atom`'s value: wrote it a value different from the
    /// one before.
    package func changed(_ atom: Int) -> Bool {
        values?.contains { $0.id == atom && !$0.isEqualWrite } == true
    }

    /// Whether this transaction changed the value of one of `atoms`.
    package func changed(anyOf atoms: Set<Int>) -> Bool {
        values?.contains { atoms.contains($0.id) && !$0.isEqualWrite } == true
    }

    /// Whether this transaction created or released `atom`.
    package func createdOrReleased(_ atom: Int) -> Bool {
        created?.contains(atom) == true || released?.contains(atom) == true
    }

    /// Whether this transaction created or released one of `atoms`.
    package func createdOrReleased(anyOf atoms: Set<Int>) -> Bool {
        created?.contains(where: atoms.contains) == true || released?.contains(where: atoms.contains) == true
    }
}

extension ValueEntry {
    /// Whether the entry writes a value equal to the one before (`[id,"="]`): a write that is
    /// not a change.
    package var isEqualWrite: Bool {
        unchanged == true
    }
}
