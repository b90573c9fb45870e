// `import AtomsJournal` gives the journal's format and reader too, as it did before the reader
// became a module of its own.
@_exported import AtomsJournalReader
