package io.meshcontrol.server;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.config.ConfigProblem;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.location.GeoDatabase;
import io.meshcontrol.relay.map.DerpMapFile;
import io.meshcontrol.relay.map.MapSourceException;
import io.meshcontrol.server.tls.CertificateFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files a valid configuration names, read with the readers the server starts with ({@code derp.paths}, the TLS
 * certificate and key, the location database), so that {@code svc configtest} fails for a file {@code svc serve} would refuse, and
 * {@code svc serve} refuses it before starting, with the key and the file named.
 */
public final class ConfiguredFiles {

    private ConfiguredFiles() {
    }

    public static List<ConfigProblem> problems(MeshConfig config) {
        List<ConfigProblem> problems = new ArrayList<>(derpMapFileProblems(config.derp().paths()));
        problems.addAll(CertificateFiles.problems(config.tls()));
        config.policy().geoipDatabase().ifPresent(file -> {
            try {
                GeoDatabase.open(file);
            } catch (MeshException e) {
                problems.add(new ConfigProblem("policy.geoip_database", e.getMessage()));
            }
        });
        return problems;
    }

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
