package io.meshcontrol.cli;

import io.meshcontrol.api.PolicyDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "policy", description = "Read or save the policy file (HuJSON).",
        subcommands = {PolicyCommand.Get.class, PolicyCommand.Set.class})
final class PolicyCommand {

    @Command(name = "get", description = "Print the policy in force, verbatim.")
    static final class Get extends Subcommand implements Callable<Integer> {
        @Override
        public Integer call() {
            String text = client().policy().policy();
            context().out().print(text.endsWith("\n") ? text : text + "\n");
            return 0;
        }
    }

    @Command(name = "set", description = "Validate and save a policy file; a rejected policy changes nothing.")
    static final class Set extends Subcommand implements Callable<Integer> {
        @Option(names = "--file", required = true, description = "The HuJSON policy file")
        Path file;

        @Override
        public Integer call() {
            String text;
            try {
                text = Files.readString(resolve(file));
            } catch (IOException e) {
                throw new CliException("cannot read " + file + ": " + e.getMessage());
            }
            PolicyDocument saved = client().setPolicy(text);
            context().err().println("policy saved (" + saved.policy().length() + " characters)");
            return 0;
        }

        private Path resolve(Path path) {
            return path.isAbsolute() ? path : context().workingDir().resolve(path);
        }
    }
}
