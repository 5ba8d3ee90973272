package io.meshcontrol.cli;

import io.meshcontrol.core.DatabaseUnreachable;
import io.meshcontrol.core.state.DatabaseMigration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "db", description = "Work on the database itself, with the server stopped.",
        subcommands = {DbCommand.Migrate.class})
final class DbCommand extends CommandGroup {

    private static final List<Output.Column<DatabaseMigration.Copied>> COLUMNS = List.of(
            new Output.Column<>("TABLE", DatabaseMigration.Copied::table),
            new Output.Column<>("ROWS", DatabaseMigration.Copied::rows),
            new Output.Column<>("SHA-256 OF THE ROWS", DatabaseMigration.Copied::checksum));

    @Command(name = "migrate",
            description = {"Copy a whole network from one database to another: SQLite to PostgreSQL or back. "
                    + "Stop the server first. The target must be new (no file; a database without tables).",
                    "A database is a SQLite file or postgres://user@host[:port]/name[?tls=disable|require|verify-full"
                            + "&password_file=FILE] (tls defaults to verify-full)."})
    static final class Migrate extends Subcommand implements Callable<Integer> {

        @Option(names = "--from", required = true, paramLabel = "DATABASE", description = "The database to copy.")
        String from;

        @Option(names = "--to", required = true, paramLabel = "DATABASE", description = "The new, empty database.")
        String to;

        @Override
        public Integer call() {
            List<DatabaseMigration.Copied> copied;
            try {
                copied = DatabaseMigration.migrate(from, to);
            } catch (IllegalArgumentException | IllegalStateException | DatabaseUnreachable e) {
                throw new CliException(e.getMessage());
            }
            context().out().print(Output.table(copied, COLUMNS));
            long rows = copied.stream().mapToLong(DatabaseMigration.Copied::rows).sum();
            context().line("copied " + copied.size() + " tables, " + rows + " rows; row counts and checksums match");
            return 0;
        }
    }
}
