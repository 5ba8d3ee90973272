package io.meshcontrol.core.store;

import io.meshcontrol.core.crypto.Sha256;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jdbi.v3.core.Handle;

/**
 * Copies every row of every table of one migrated database into another, empty one of the same schema version, the
 * engines alike or not, and checks the copy: per table, the row count and a checksum of the rows' values (order
 * aside) must be equal on both sides. Rows are copied as they are, not replayed through the state services: it is
 * the same network moving, its ids, times and audit log included, and nothing is audited or announced.
 */
public final class DatabaseCopy {

    private static final int BATCH = 1000;

    /** One table's figures, the same on both sides once the copy is verified. */
    public record TableFigures(String table, long rows, String checksum) {
    }

    private DatabaseCopy() {
    }

    /**
     * Copies {@code from} into {@code to} in one transaction of the target; the target's rows the migrations wrote
     * (sequence starts, the settings row) are replaced by the source's.
     *
     * @return the verified figures of every table
     * @throws IllegalStateException when the schemas differ or the copy does not match the source
     */
    public static List<TableFigures> copy(Database from, Database to) {
        List<String> tables = from.jdbi().withHandle(from.dialect()::tables);
        List<String> targetTables = to.jdbi().withHandle(to.dialect()::tables);
        if (!new LinkedHashSet<>(tables).equals(new LinkedHashSet<>(targetTables))) {
            throw new IllegalStateException("the two databases have different tables: " + tables + " and "
                    + targetTables);
        }
        try {
            List<String> ordered = to.jdbi().withHandle(h -> parentsFirst(h.getConnection(), tables));
            // The source is read in a transaction too: PostgreSQL's driver streams rows (fetch size) only inside one.
            to.jdbi().useTransaction(target -> from.jdbi().useTransaction(source -> {
                for (String table : ordered.reversed()) {
                    target.execute("DELETE FROM " + table);
                }
                for (String table : ordered) {
                    copyTable(source.getConnection(), target.getConnection(), table);
                }
            }));
        } catch (SQLException e) {
            throw new IllegalStateException("the copy failed, nothing was written: " + e.getMessage(), e);
        }
        List<TableFigures> copied = new ArrayList<>();
        for (String table : tables) {
            TableFigures source = from.jdbi().inTransaction(h -> figures(h, table));
            TableFigures target = to.jdbi().inTransaction(h -> figures(h, table));
            if (!source.equals(target)) {
                throw new IllegalStateException("the copy of " + table + " does not match: source " + source.rows()
                        + " rows, checksum " + source.checksum() + "; target " + target.rows() + " rows, checksum "
                        + target.checksum());
            }
            copied.add(source);
        }
        return copied;
    }

    /** The row count and checksum of {@code table}, comparable across the two engines. */
    public static TableFigures figures(Handle handle, String table) {
        List<String> rows = new ArrayList<>();
        try (PreparedStatement select = streaming(handle.getConnection().prepareStatement("SELECT * FROM " + table));
                ResultSet result = select.executeQuery()) {
            ResultSetMetaData columns = result.getMetaData();
            while (result.next()) {
                // By column name: a column added by a later migration is last on both engines, but need not be.
                Map<String, String> values = new TreeMap<>();
                for (int i = 1; i <= columns.getColumnCount(); i++) {
                    values.put(columns.getColumnName(i).toLowerCase(Locale.ROOT), canonical(result.getObject(i)));
                }
                StringBuilder row = new StringBuilder();
                values.forEach((name, value) -> row.append(name).append('=').append(value).append('\u0000'));
                rows.add(Sha256.hex(row.toString()));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read " + table + ": " + e.getMessage(), e);
        }
        // Sorted: the engines return rows in orders of their own, and text sorts by their own collations.
        rows.sort(null);
        return new TableFigures(table, rows.size(), Sha256.hex(String.join("\n", rows)));
    }

    /**
     * One value's text, the same on both engines: SQLite keeps booleans as the integers 0 and 1 and hands back an
     * Integer or a Long for a whole number, whatever the column says.
     */
    private static String canonical(Object value) {
        if (value == null) {
            return "\u0001null";
        }
        if (value instanceof Boolean bool) {
            return bool ? "1" : "0";
        }
        if (value instanceof Number number) {
            return Long.toString(number.longValue());
        }
        return value.toString();
    }

    private static void copyTable(Connection source, Connection target, String table) throws SQLException {
        Map<String, Integer> types = columnTypes(target, table);
        List<String> names = new ArrayList<>(types.keySet());
        String insert = "INSERT INTO " + table + " (" + String.join(", ", names) + ") VALUES ("
                + String.join(", ", names.stream().map(n -> "?").toList()) + ")";
        try (PreparedStatement select = streaming(source.prepareStatement("SELECT " + String.join(", ", names)
                + " FROM " + table)); ResultSet rows = select.executeQuery();
                PreparedStatement into = target.prepareStatement(insert)) {
            int pending = 0;
            while (rows.next()) {
                for (int i = 0; i < names.size(); i++) {
                    bind(into, i + 1, rows.getObject(i + 1), types.get(names.get(i)));
                }
                into.addBatch();
                if (++pending == BATCH) {
                    into.executeBatch();
                    pending = 0;
                }
            }
            if (pending > 0) {
                into.executeBatch();
            }
        }
    }

    /** Rows fetched a batch at a time, not a whole audit log in memory at once. */
    private static PreparedStatement streaming(PreparedStatement select) throws SQLException {
        select.setFetchSize(BATCH);
        return select;
    }

    /** Binds {@code value} as the target column's type: a SQLite boolean arrives as 0 or 1, a number as either. */
    private static void bind(PreparedStatement statement, int index, Object value, int type) throws SQLException {
        if (value == null) {
            statement.setNull(index, type);
        } else if (type == Types.BOOLEAN || type == Types.BIT) {
            statement.setBoolean(index, value instanceof Boolean bool ? bool : ((Number) value).longValue() != 0);
        } else if (value instanceof Boolean bool) {
            // SQLite's driver reports a BOOLEAN column as NUMERIC; it keeps true as 1, as the stores write it.
            statement.setBoolean(index, bool);
        } else if (value instanceof Number number) {
            statement.setLong(index, number.longValue());
        } else {
            statement.setString(index, value.toString());
        }
    }

    /** The target's columns of {@code table}, in their order, with their JDBC types. */
    private static Map<String, Integer> columnTypes(Connection connection, String table) throws SQLException {
        Map<String, Integer> types = new LinkedHashMap<>();
        try (ResultSet columns = connection.getMetaData().getColumns(null, connection.getSchema(), table, null)) {
            while (columns.next()) {
                if (table.equals(columns.getString("TABLE_NAME"))) {
                    types.put(columns.getString("COLUMN_NAME"), columns.getInt("DATA_TYPE"));
                }
            }
        }
        return types;
    }

    /** {@code tables} ordered so that every table comes after the tables its foreign keys point at. */
    private static List<String> parentsFirst(Connection connection, List<String> tables) throws SQLException {
        DatabaseMetaData metadata = connection.getMetaData();
        Map<String, Set<String>> parents = new LinkedHashMap<>();
        for (String table : tables) {
            Set<String> of = new LinkedHashSet<>();
            try (ResultSet keys = metadata.getImportedKeys(null, connection.getSchema(), table)) {
                while (keys.next()) {
                    String parent = keys.getString("PKTABLE_NAME");
                    if (!parent.equals(table)) {
                        of.add(parent);
                    }
                }
            }
            parents.put(table, of);
        }
        List<String> ordered = new ArrayList<>();
        while (ordered.size() < tables.size()) {
            boolean progressed = false;
            for (String table : tables) {
                if (!ordered.contains(table) && ordered.containsAll(parents.get(table))) {
                    ordered.add(table);
                    progressed = true;
                }
            }
            if (!progressed) {
                throw new IllegalStateException("the foreign keys of " + tables + " form a cycle");
            }
        }
        return ordered;
    }

}
