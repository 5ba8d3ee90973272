package io.meshcontrol.cli;

import io.meshcontrol.core.config.ConfigLoader;
import io.meshcontrol.core.config.ConfigProblem;
import io.meshcontrol.core.config.ConfigRequest;
import io.meshcontrol.core.config.LoadedConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "configtest",
        description = "Check the configuration: every problem is printed with its key; exit code 0 only when valid.")
final class ConfigtestCommand extends Subcommand implements Callable<Integer> {

    @Override
    public Integer call() {
        CliContext context = context();
        LoadedConfig loaded = ConfigLoader.load(new ConfigRequest(root().config, context.env(), context.workingDir(),
                context.homeDir()));
        String source = loaded.source().map(Object::toString).orElse("built-in defaults (no config file found)");
        for (String warning : loaded.warnings()) {
            context.err().println("warning: " + warning);
        }
        for (ConfigProblem problem : loaded.errors()) {
            context.err().println("error: " + problem);
        }
        if (!loaded.valid()) {
            context.err().println(source + ": " + loaded.errors().size() + " problem(s)");
            return Svc.FAILED;
        }
        context.out().println(source + ": configuration is valid");
        return 0;
    }
}
