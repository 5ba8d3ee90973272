package io.meshcontrol.cli;

import io.meshcontrol.api.MeshClient;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Base of the management commands: the context and a client of the server they manage. */
abstract class Subcommand {

    @Spec
    CommandSpec spec;

    RootCommand root() {
        return (RootCommand) spec.root().userObject();
    }

    CliContext context() {
        return root().context;
    }

    MeshClient client() {
        return Connection.open(root());
    }
}
