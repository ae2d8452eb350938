/// Brings a database's schema up to date: named migrations, registered in order, each applied
/// once, in its own transaction, and recorded in the database.
///
/// ```swift
/// var migrator = SQLiteMigrator()
/// migrator.register("create notes") { db in
///   try db.execute("CREATE TABLE notes (title TEXT NOT NULL)")
/// }
/// migrator.register("add size") { db in
///   try db.execute("ALTER TABLE notes ADD COLUMN size INTEGER")
/// }
/// try migrator.migrate(queue)
/// ```
///
/// Which migrations ran is a query (``appliedMigrations(in:)``), not a guess. A database that
/// records a migration this version does not know was written by a newer version: `migrate`
/// refuses it with ``SQLiteMigrationError/newerSchema(unknown:)`` and changes nothing.
package struct SQLiteMigrator: Sendable {
  package typealias Migration = @Sendable (SQLiteConnection) throws -> Void

  private var migrations: [(name: String, migrate: Migration)] = []

  package init() {}

  /// Adds a migration after those registered before it. Names must be unique and must never
  /// change once released: the database records them.
  package mutating func register(_ name: String, _ migrate: @escaping Migration) {
    migrations.append((name, migrate))
  }

  /// The names of the registered migrations, in order.
  package var names: [String] { migrations.map(\.name) }

  /// Applies the migrations the database has not recorded yet, in order, each in its own
  /// transaction with its record.
  ///
  /// - Returns: The names of the migrations applied now.
  @discardableResult
  package func migrate(_ queue: SQLiteQueue) throws -> [String] {
    try migrate(queue, first: migrations.count)
  }

  /// Applies the migrations the database has not recorded yet, in order, up to and including
  /// the one named `last`: the schema an earlier version left, for a test of the migrations
  /// after it.
  ///
  /// ```swift
  /// try InboxDatabase.migrator.migrate(queue, upTo: "inbox 3")
  /// ```
  ///
  /// - Returns: The names of the migrations applied now.
  @discardableResult
  package func migrate(_ queue: SQLiteQueue, upTo last: String) throws -> [String] {
    guard let index = names.firstIndex(of: last) else {
      throw SQLiteError(extendedCode: 21, message: "no migration is named \"\(last)\"")
    }
    return try migrate(queue, first: index + 1)
  }

  /// Applies the first `count` migrations the database has not recorded yet.
  private func migrate(_ queue: SQLiteQueue, first count: Int) throws -> [String] {
    try queue.write { db in
      try db.execute(
        "CREATE TABLE IF NOT EXISTS loom_migrations (name TEXT PRIMARY KEY NOT NULL) STRICT")
    }
    var applied: [String] = []
    for (index, migration) in migrations.prefix(count).enumerated() {
      let ran = try queue.write { db -> Bool in
        // Checked inside the write transaction: another process may be migrating too.
        let done = Set(try Self.appliedMigrations(in: db))
        if index == 0 {
          let unknown = done.subtracting(names).sorted()
          if !unknown.isEmpty { throw SQLiteMigrationError.newerSchema(unknown: unknown) }
        }
        guard !done.contains(migration.name) else { return false }
        try migration.migrate(db)
        try db.execute("INSERT INTO loom_migrations (name) VALUES (?)", [.text(migration.name)])
        try db.execute("PRAGMA user_version = \(done.count + 1)")
        return true
      }
      if ran { applied.append(migration.name) }
    }
    return applied
  }

  /// The names of the migrations the database records as applied.
  package static func appliedMigrations(in db: SQLiteConnection) throws(SQLiteError) -> [String] {
    try db.statement("SELECT name FROM loom_migrations ORDER BY rowid").rows { $0.text(at: 0) }
  }
}

/// Why a database's schema could not be brought up to date.
package enum SQLiteMigrationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The database records migrations this version does not know: a newer version wrote it.
  case newerSchema(unknown: [String])

  package var description: String {
    switch self {
    case .newerSchema(let unknown):
      "The database was written by a newer version (it has migrations this version does not know: \(unknown.joined(separator: ", ")))."
    }
  }
}
