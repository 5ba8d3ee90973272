package io.meshcontrol.cli;

import io.meshcontrol.core.config.ConfigLoader;
import io.meshcontrol.core.config.ConfigProblem;
import io.meshcontrol.core.config.LoadedConfig;
import io.meshcontrol.server.ConfiguredFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "configtest",
        description = "Check the configuration: every problem is printed with its key; exit code 0 only when valid.")
final class ConfigtestCommand extends Subcommand implements Callable<Integer> {

    @Override
    public Integer call() {
        CliContext context = context();
        root().configFile(); // a named file that is missing is the one error: nothing else can be checked
        LoadedConfig loaded = ConfigLoader.load(root().configRequest());
        String source = loaded.source().map(Object::toString).orElse("built-in defaults (no config file found)");
        for (String warning : loaded.warnings()) {
            context.note("warning: " + warning);
        }
        List<ConfigProblem> problems = new ArrayList<>(loaded.errors());
        problems.addAll(ConfiguredFiles.problems(loaded.config()));
        for (ConfigProblem problem : problems) {
            context.note("error: " + problem);
        }
        if (!problems.isEmpty()) {
            context.note(source + ": " + problems.size() + " problem(s)");
            return Svc.FAILED;
        }
        context.line(source + ": configuration is valid");
        return 0;
    }
}
