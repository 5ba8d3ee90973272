package io.meshcontrol.cli;

import io.meshcontrol.gui.AdminApp;
import io.meshcontrol.gui.Launch;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "admin", description = {
        "Open the desktop admin app: manage the server on this computer (no key needed) or remote servers (address"
                + " and API key, saved per server). Returns when the window is closed. See docs/desktop.md."})
final class AdminCommand extends Subcommand implements Callable<Integer> {

    @Override
    public Integer call() {
        CliContext context = context();
        String display = context.env().getOrDefault("DISPLAY", "");
        String wayland = context.env().getOrDefault("WAYLAND_DISPLAY", "");
        if (display.isEmpty() && wayland.isEmpty()) {
            throw new CliException("svc admin opens a window, but there is no display here (neither DISPLAY nor"
                    + " WAYLAND_DISPLAY is set); use the other svc commands, or run it on a desktop");
        }
        // The local server is found where the CLI finds it (cli.local_credential_path or the default place).
        AdminApp.open(new Launch(Svc.version(), Launch.defaultConfigFolder(context.env(), context.homeDir()),
                Connection.settings(root()).localCredential()));
        return 0;
    }
}
