package io.meshcontrol.cli;

import io.meshcontrol.api.PolicyCheck;
import io.meshcontrol.api.PolicyDocument;
import io.meshcontrol.core.policy.CompiledPolicy;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.PolicyChecks;
import io.meshcontrol.core.policy.PolicyInventory;
import io.meshcontrol.core.policy.PolicySimulation;
import io.meshcontrol.core.wire.WireJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.SerializationFeature;

@Command(name = "policy", description = "Read, save, check or simulate the policy file (HuJSON).",
        subcommands = {PolicyCommand.Get.class, PolicyCommand.Set.class, PolicyCommand.Check.class,
                PolicyCommand.Simulate.class})
final class PolicyCommand extends CommandGroup {

    @Command(name = "get", description = "Print the policy in force, verbatim.")
    static final class Get extends Subcommand implements Callable<Integer> {
        @Override
        public Integer call() {
            String text = client().policy().policy();
            context().out().print(text.endsWith("\n") ? text : text + "\n");
            return 0;
        }
    }

    @Command(name = "set", description = "Validate and save a policy file (its tests must pass); a rejected policy "
            + "changes nothing.")
    static final class Set extends Subcommand implements Callable<Integer> {
        @Option(names = "--file", required = true, description = "The HuJSON policy file")
        Path file;

        @Override
        public Integer call() {
            PolicyDocument saved = client().setPolicy(read(context(), file));
            context().note("policy saved (" + saved.policy().length() + " characters)");
            return 0;
        }
    }

    @Command(name = "check", description = "Validate a policy file and run its tests on the server, without saving.")
    static final class Check extends Subcommand implements Callable<Integer> {
        @Option(names = "--file", required = true, description = "The HuJSON policy file")
        Path file;

        @Override
        public Integer call() {
            PolicyCheck result = client().checkPolicy(read(context(), file));
            context().line("policy is valid; " + plural(result.tests(), "test") + " and "
                    + plural(result.sshTests(), "SSH test") + " passed");
            return 0;
        }
    }

    @Command(name = "simulate", description = {"Compile a policy against a described network, offline (no server), "
            + "with the server's own compiler.",
            "Prints one JSON object per node: packetFilter, sshPolicy, peers, capMap."})
    static final class Simulate extends Subcommand implements Callable<Integer> {
        @Option(names = "--policy", required = true, description = "The HuJSON policy file")
        Path policy;

        @Option(names = "--nodes", required = true, description = "The network: JSON with \"users\" and \"nodes\" "
                + "(see docs/policy.md)")
        Path nodes;

        @Option(names = "--node", description = "Print only this node")
        String node;

        @Option(names = "--server-url", defaultValue = "https://control.invalid",
                description = "The server URL SSH check rules point to (default: ${DEFAULT-VALUE})")
        String serverUrl;

        @Override
        public Integer call() {
            Policy parsed = Policy.parse(read(context(), policy));
            PolicyInventory inventory = PolicySimulation.readInventory(read(context(), nodes), parsed);
            PolicyChecks.check(parsed, inventory);
            CompiledPolicy compiled = CompiledPolicy.compile(parsed, inventory, serverUrl);
            String json = WireJson.mapper().rebuild().enable(SerializationFeature.INDENT_OUTPUT).build()
                    .writeValueAsString(PolicySimulation.simulate(compiled, inventory, node));
            context().out().println(json);
            return 0;
        }
    }

    static String read(CliContext context, Path path) {
        Path resolved = path.isAbsolute() ? path : context.workingDir().resolve(path);
        try {
            return Files.readString(resolved);
        } catch (IOException e) {
            throw new CliException("cannot read " + path + ": " + e.getMessage());
        }
    }

    private static String plural(int count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }
}
