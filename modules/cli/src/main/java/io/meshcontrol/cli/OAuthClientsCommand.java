package io.meshcontrol.cli;

import io.meshcontrol.api.IssuedOAuthClient;
import io.meshcontrol.api.OAuthClientList;
import io.meshcontrol.api.OAuthClientRequest;
import io.meshcontrol.api.OAuthClientView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "oauth-clients", description = "Manage OAuth clients (a secret exchanged for access tokens) and "
        + "federated identities (a workload's OIDC token exchanged for access tokens). See docs/identity.md.",
        subcommands = {OAuthClientsCommand.Create.class, OAuthClientsCommand.Update.class,
                OAuthClientsCommand.ListClients.class, OAuthClientsCommand.Delete.class})
final class OAuthClientsCommand extends CommandGroup {

    static final List<Output.Column<OAuthClientView>> COLUMNS = List.of(
            new Output.Column<>("ID", OAuthClientView::id),
            new Output.Column<>("KIND", OAuthClientView::keyType),
            new Output.Column<>("SCOPES", c -> String.join(",", c.scopes())),
            new Output.Column<>("TAGS", c -> String.join(",", c.tags())),
            new Output.Column<>("TRUSTS", OAuthClientsCommand::trusts),
            new Output.Column<>("DESCRIPTION", OAuthClientView::description),
            new Output.Column<>("STATE", c -> c.revoked() ? "revoked" : "active"));

    /** What a federated identity trusts: the subject of the issuer's tokens, and further claims. */
    static String trusts(OAuthClientView client) {
        if (client.issuer() == null) {
            return "";
        }
        StringBuilder text = new StringBuilder(client.subject()).append(" from ").append(client.issuer());
        if (client.customClaimRules() != null) {
            client.customClaimRules().forEach((claim, pattern) -> text.append(", ").append(claim).append('=').append(pattern));
        }
        return text.toString();
    }

    /** {@code --claim name=value}, repeated; null when none was given. */
    static Map<String, String> claims(List<String> claims) {
        if (claims == null) {
            return null;
        }
        Map<String, String> rules = new LinkedHashMap<>();
        for (String claim : claims) {
            int equals = claim.indexOf('=');
            if (equals <= 0) {
                throw new CliException("--claim takes name=value, got \"" + claim + "\"");
            }
            rules.put(claim.substring(0, equals), claim.substring(equals + 1));
        }
        return rules;
    }

    @Command(name = "create", description = "Create an OAuth client, or with --federated a federated identity; a "
            + "client's secret is printed once.")
    static final class Create extends Subcommand implements Callable<Integer> {
        @Option(names = "--scope", description = "A scope tokens get (repeatable), e.g. auth_keys, devices:core")
        List<String> scopes;

        @Option(names = "--tag", description = "A tag tokens hold (repeatable); required with auth_keys or devices:core")
        List<String> tags;

        @Option(names = "--description", description = "What the client is for")
        String description;

        @Option(names = "--federated", description = "A federated identity: trusts tokens of an OIDC issuer, no secret")
        boolean federated;

        @Option(names = "--issuer", description = "The workload's OIDC issuer URL (federated)")
        String issuer;

        @Option(names = "--audience", description = "The audience its tokens must carry (federated; default: generated)")
        String audience;

        @Option(names = "--subject", description = "The sub its tokens must carry, * matching any text (federated)")
        String subject;

        @Option(names = "--claim", description = "name=pattern another claim must match (federated, repeatable)")
        List<String> claims;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            IssuedOAuthClient issued = client().createOAuthClient(new OAuthClientRequest(
                    federated ? "federated" : "client", scopes, tags, description, issuer, audience, subject,
                    claims(claims)));
            OAuthClientView created = issued.oauthClient();
            if (issued.secret() == null) {
                output.print(context(), issued, List.of(created), COLUMNS);
                if (output.isTable()) {
                    context().note("federated identity " + created.id() + " trusts " + trusts(created)
                            + " with audience " + created.audience());
                }
                return 0;
            }
            output.printSecret(context(), issued, issued.secret(), List.of("OAuth client " + created.id()
                    + " created; the secret above is not shown again"));
            return 0;
        }
    }

    @Command(name = "update", description = "Change a client or identity in place; options left out keep their value.")
    static final class Update extends Subcommand implements Callable<Integer> {
        @Option(names = "--id", required = true, description = "The client's id, as listed")
        String id;

        @Option(names = "--scope", description = "Replaces the scopes (repeatable)")
        List<String> scopes;

        @Option(names = "--tag", description = "Replaces the tags (repeatable)")
        List<String> tags;

        @Option(names = "--description", description = "What the client is for")
        String description;

        @Option(names = "--issuer", description = "The OIDC issuer URL (federated)")
        String issuer;

        @Option(names = "--audience", description = "The required audience (federated)")
        String audience;

        @Option(names = "--subject", description = "The required sub, * matching any text (federated)")
        String subject;

        @Option(names = "--claim", description = "name=pattern; replaces the claim rules (federated, repeatable)")
        List<String> claims;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            OAuthClientView updated = client().updateOAuthClient(id, new OAuthClientRequest(null, scopes, tags,
                    description, issuer, audience, subject, claims(claims)));
            output.print(context(), updated, List.of(updated), COLUMNS);
            return 0;
        }
    }

    @Command(name = "list", description = "List OAuth clients and federated identities, with what each identity trusts.")
    static final class ListClients extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            List<OAuthClientView> clients = client().oauthClients();
            output.print(context(), new OAuthClientList(clients), clients, COLUMNS);
            return 0;
        }
    }

    @Command(name = "delete", description = "Revoke a client or identity: its secret and tokens stop working at once.")
    static final class Delete extends Subcommand implements Callable<Integer> {
        @Option(names = "--id", required = true, description = "The client's id, as listed")
        String id;

        @Override
        public Integer call() {
            client().deleteOAuthClient(id);
            context().note("revoked OAuth client " + id);
            return 0;
        }
    }
}
