package io.meshcontrol.cli;

import io.meshcontrol.core.config.ConfigLoader;
import io.meshcontrol.core.config.ConfigProblem;
import io.meshcontrol.core.config.ConfigRequest;
import io.meshcontrol.core.config.LoadedConfig;
import io.meshcontrol.relay.map.DerpMapFile;
import io.meshcontrol.relay.map.MapSourceException;
import java.nio.file.Path;
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
        LoadedConfig loaded = ConfigLoader.load(new ConfigRequest(root().config, context.env(), context.workingDir(),
                context.homeDir()));
        String source = loaded.source().map(Object::toString).orElse("built-in defaults (no config file found)");
        for (String warning : loaded.warnings()) {
            context.note("warning: " + warning);
        }
        List<ConfigProblem> problems = new ArrayList<>(loaded.errors());
        problems.addAll(derpMapFileProblems(loaded.config().derp().paths()));
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

    /** Reads each {@code derp.paths} file with the reader {@code svc serve} uses, so a file serve refuses fails here. */
    private static List<ConfigProblem> derpMapFileProblems(List<Path> files) {
        List<ConfigProblem> problems = new ArrayList<>();
        for (Path file : files) {
            try {
                DerpMapFile.read(file);
            } catch (MapSourceException e) {
                problems.add(new ConfigProblem("derp.paths", e.getMessage()));
            }
        }
        return problems;
    }
}
