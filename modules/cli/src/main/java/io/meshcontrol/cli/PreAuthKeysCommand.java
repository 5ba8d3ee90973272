package io.meshcontrol.cli;

import io.meshcontrol.api.IssuedPreAuthKey;
import io.meshcontrol.api.PreAuthKeyList;
import io.meshcontrol.api.NewPreAuthKeyDefaults;
import io.meshcontrol.api.PreAuthKeyView;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "preauthkeys", description = "Manage pre-auth keys, which machines use to join (tailscale up --auth-key).",
        subcommands = {PreAuthKeysCommand.Create.class, PreAuthKeysCommand.ListKeys.class, PreAuthKeysCommand.Delete.class})
final class PreAuthKeysCommand extends CommandGroup {

    static final List<Output.Column<PreAuthKeyView>> COLUMNS = List.of(
            new Output.Column<>("ID", PreAuthKeyView::id),
            new Output.Column<>("PREFIX", PreAuthKeyView::prefix),
            new Output.Column<>("USER", PreAuthKeyView::user),
            new Output.Column<>("TAGS", k -> String.join(",", k.tags())),
            new Output.Column<>("REUSABLE", PreAuthKeyView::reusable),
            new Output.Column<>("EPHEMERAL", PreAuthKeyView::ephemeral),
            new Output.Column<>("PREAUTHORIZED", PreAuthKeyView::preauthorized),
            new Output.Column<>("DESCRIPTION", PreAuthKeyView::description),
            new Output.Column<>("EXPIRES", PreAuthKeyView::expiresAt),
            new Output.Column<>("STATE", k -> k.valid() ? "valid" : "invalid: " + k.invalidReason()));

    @Command(name = "create", description = "Create a key and print its secret once.")
    static final class Create extends Subcommand implements Callable<Integer> {
        @Option(names = "--user", description = "User whose machines the key registers")
        String user;

        @Option(names = "--tag", description = "Tag for the registered machines (repeatable); they then belong to the tags")
        List<String> tags;

        @Option(names = "--reusable", description = "Usable for many machines (default: once)")
        Boolean reusable;

        @Option(names = "--ephemeral", description = "Machines are removed after going offline")
        Boolean ephemeral;

        @Option(names = "--preauthorized", description = "Machines skip device approval")
        Boolean preauthorized;

        @Option(names = "--description", description = "What the key is for")
        String description;

        @Option(names = "--expiration", converter = DurationOption.class,
                description = "Lifetime: 1h, 7d, 2w, 90 days, 1h30m ... (default: 1 day, as in the console)")
        String expiration;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            IssuedPreAuthKey issued = client().createPreAuthKey(NewPreAuthKeyDefaults.STANDARD.request(user, tags,
                    reusable, ephemeral, preauthorized, description, expiration));
            output.printSecret(context(), issued, issued.secret(), List.of("pre-auth key " + issued.preAuthKey().id()
                    + " expires " + issued.preAuthKey().expiresAt() + "; the secret above is not shown again"));
            return 0;
        }
    }

    @Command(name = "list", description = "List keys; revoked, expired and used-up keys show as invalid.")
    static final class ListKeys extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            List<PreAuthKeyView> keys = client().preAuthKeys();
            output.print(context(), new PreAuthKeyList(keys), keys, COLUMNS);
            return 0;
        }
    }

    @Command(name = "delete", description = "Revoke a key; it stays listed as invalid until reaped.")
    static final class Delete extends Subcommand implements Callable<Integer> {
        @Option(names = "--id", required = true, description = "The key's id, as listed")
        String id;

        @Override
        public Integer call() {
            client().deletePreAuthKey(id);
            context().note("revoked pre-auth key " + id);
            return 0;
        }
    }
}
