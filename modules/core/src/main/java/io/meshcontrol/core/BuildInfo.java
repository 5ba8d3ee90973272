package io.meshcontrol.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The product version, stamped into the build by Maven resource filtering. */
public final class BuildInfo {

    private static final String VERSION = readVersion();

    private BuildInfo() {
    }

    public static String version() {
        return VERSION;
    }

    private static String readVersion() {
        try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
