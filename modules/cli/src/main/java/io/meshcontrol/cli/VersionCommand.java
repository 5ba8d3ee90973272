package io.meshcontrol.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;

@Command(name = "version", description = "Print the version of this svc.")
final class VersionCommand extends Subcommand implements Callable<Integer> {

    @Override
    public Integer call() {
        context().line("svc " + Svc.version());
        return 0;
    }

    static final class Provider implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"svc " + Svc.version()};
        }
    }
}
