package io.meshcontrol.cli;

import io.meshcontrol.api.ApiKeyList;
import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.ApiKeyView;
import io.meshcontrol.api.IssuedApiKey;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "apikeys", description = "Manage API keys. A secret is shown once, at creation or rotation.",
        subcommands = {ApiKeysCommand.Create.class, ApiKeysCommand.ListKeys.class, ApiKeysCommand.Expire.class,
                ApiKeysCommand.Rotate.class})
final class ApiKeysCommand extends CommandGroup {

    static final List<Output.Column<ApiKeyView>> COLUMNS = List.of(
            new Output.Column<>("ID", ApiKeyView::id),
            new Output.Column<>("PREFIX", ApiKeyView::prefix),
            new Output.Column<>("USER", k -> k.user() == null ? "(no owner)" : k.user()),
            new Output.Column<>("SCOPES", ApiKeysCommand::access),
            new Output.Column<>("DESCRIPTION", ApiKeyView::description),
            new Output.Column<>("EXPIRES", ApiKeyView::expiresAt),
            new Output.Column<>("STATE", k -> k.expired() ? "expired" : "active"),
            new Output.Column<>("LAST USED", ApiKeyView::lastUsedAt));

    /** What a key may do: its scopes, else its owner's whole role, else (no owner, no scopes) everything. */
    static String access(ApiKeyView key) {
        if (!key.scopes().isEmpty()) {
            return String.join(",", key.scopes());
        }
        return key.user() == null ? "(all access)" : "(owner's role)";
    }

    static void printIssued(Subcommand command, Output output, IssuedApiKey issued) {
        List<String> notes = new java.util.ArrayList<>();
        if (!issued.droppedScopes().isEmpty()) {
            notes.add("note: scopes not granted (not delegable): " + String.join(", ", issued.droppedScopes()));
        }
        notes.add("key " + issued.apiKey().prefix() + " expires " + issued.apiKey().expiresAt()
                + "; the secret above is not shown again");
        output.printSecret(command.context(), issued, issued.secret(), notes);
    }

    @Command(name = "create", description = "Create an API key and print its secret once.")
    static final class Create extends Subcommand implements Callable<Integer> {
        @Option(names = "--user", description = "Owner; the key is bounded by the owner's role. Without it and without "
                + "--scope: all access")
        String user;

        @Option(names = "--scope", description = "A scope to grant (repeatable), e.g. devices:core, users:read")
        List<String> scopes;

        @Option(names = "--description", description = "What the key is for")
        String description;

        @Option(names = "--expiration", converter = DurationOption.class,
                description = "Lifetime: 30d, 2w, 90 days, 720h ... (default: 90 days)")
        String expiration;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            printIssued(this, output, client().createApiKey(new ApiKeyRequest(user, scopes, description, expiration)));
            return 0;
        }
    }

    @Command(name = "list", description = "List API keys (never their secrets).")
    static final class ListKeys extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            List<ApiKeyView> keys = client().apiKeys();
            output.print(context(), new ApiKeyList(keys), keys, COLUMNS);
            return 0;
        }
    }

    @Command(name = "expire", description = "Expire (revoke) a key: it stops working at once.")
    static final class Expire extends Subcommand implements Callable<Integer> {
        @Option(names = "--prefix", required = true, description = "The key's prefix, as listed")
        String prefix;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            ApiKeyView key = client().expireApiKey(prefix);
            output.print(context(), key, List.of(key), COLUMNS);
            return 0;
        }
    }

    @Command(name = "rotate", description = "Give a key a new secret and prefix; the old secret stops working at once.")
    static final class Rotate extends Subcommand implements Callable<Integer> {
        @Option(names = "--prefix", required = true, description = "The key's current prefix")
        String prefix;

        @Option(names = "--expiration", converter = DurationOption.class,
                description = "New lifetime from now: 30d, 2w, 720h ... (default: keep the expiry)")
        String expiration;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            printIssued(this, output, client().rotateApiKey(prefix, expiration));
            return 0;
        }
    }
}
