package io.meshcontrol.gui;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What the app needs from whoever starts it.
 *
 * @param version         this program's version: a server of another version is reported in the window
 * @param configFolder    where the saved servers, their keys and the window's size are kept
 * @param localCredential where the server on this machine leaves its credential ({@code cli.local_credential_path})
 */
public record Launch(String version, Path configFolder, Path localCredential) {

    /**
     * The user's configuration folder for the app: {@code $XDG_CONFIG_HOME/svc/desktop}, else
     * {@code ~/.config/svc/desktop}.
     */
    public static Path defaultConfigFolder(Map<String, String> env, Path home) {
        Path base = Optional.ofNullable(env.get("XDG_CONFIG_HOME")).filter(value -> !value.isEmpty())
                .map(Path::of).filter(Path::isAbsolute)
                .orElseGet(() -> home.resolve(".config"));
        return base.resolve("svc").resolve("desktop");
    }
}
