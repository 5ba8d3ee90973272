package io.meshcontrol.core.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.flywaydb.core.api.ResourceProvider;
import org.flywaydb.core.api.resource.LoadableResource;

/**
 * Gives Flyway the migrations listed in {@code db/migration/index.txt}, read from this module: the common ones and
 * those under the dialect's own folder ({@code sqlite/}, {@code postgres/}), which keep their plain file name.
 */
final class MigrationIndex implements ResourceProvider {

    static final String LOCATION = "db/migration";

    private final List<Migration> migrations;

    MigrationIndex(Dialect dialect) {
        this.migrations = readIndex().stream()
                .filter(entry -> !entry.contains("/") || entry.startsWith(dialect.folder() + "/"))
                .map(Migration::new).toList();
    }

    static List<String> readIndex() {
        List<String> names = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(open(LOCATION + "/index.txt"),
                StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                String name = line.strip();
                if (!name.isEmpty() && !name.startsWith("#")) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    private static InputStream open(String path) throws IOException {
        // Module#getResourceAsStream works for our own resources on the module path, the class path and in an image.
        InputStream in = MigrationIndex.class.getModule().getResourceAsStream(path);
        if (in == null) {
            in = MigrationIndex.class.getClassLoader().getResourceAsStream(path);
        }
        if (in == null) {
            throw new IOException("missing resource " + path);
        }
        return in;
    }

    @Override
    public LoadableResource getResource(String name) {
        return migrations.stream().filter(m -> m.getRelativePath().equals(name) || m.getFilename().equals(name))
                .findFirst().orElse(null);
    }

    @Override
    public Collection<LoadableResource> getResources(String prefix, String[] suffixes) {
        return migrations.stream()
                .filter(m -> m.getFilename().startsWith(prefix))
                .filter(m -> Arrays.stream(suffixes).anyMatch(m.getFilename()::endsWith))
                .map(LoadableResource.class::cast)
                .toList();
    }

    private static final class Migration extends LoadableResource {
        private final String path;
        private final String filename;
        private final String text;

        Migration(String path) {
            this.path = path;
            this.filename = path.substring(path.lastIndexOf('/') + 1);
            try (InputStream in = open(LOCATION + "/" + path)) {
                this.text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public Reader read() {
            return new StringReader(text);
        }

        @Override
        public String getAbsolutePath() {
            return LOCATION + "/" + path;
        }

        @Override
        public String getAbsolutePathOnDisk() {
            return getAbsolutePath();
        }

        @Override
        public String getFilename() {
            return filename;
        }

        @Override
        public String getRelativePath() {
            return filename;
        }
    }
}
