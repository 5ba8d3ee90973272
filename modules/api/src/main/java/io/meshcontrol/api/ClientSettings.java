package io.meshcontrol.api;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonPointer;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.StringNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * How a client on this machine finds its server: the {@code cli} section of {@code config.yaml} with its
 * {@code SVC_CLI_*} overrides, and nothing else of the file, so a server key the client does not understand (or a
 * server section that is wrong) never stops the CLI or the desktop app from reaching a server. {@code svc configtest}
 * checks the whole file, this section included, with the server's rules; the two must accept the same values.
 *
 * @param address         {@code cli.address} with its scheme ({@code https://} when written without one): manage
 *                        that remote server; none: the server running on this machine
 * @param apiKey          {@code cli.api_key}, sent to a remote server
 * @param insecure        {@code cli.insecure}: skip TLS certificate verification
 * @param localCredential where the server on this machine leaves its {@link LocalAccess} credential:
 *                        {@code cli.local_credential_path}, else {@link LocalAccess#defaultLocation}
 * @param credentialOrigin why {@code localCredential} is that path, for messages
 *                        ({@code "cli.local_credential_path in /etc/svc/config.yaml"})
 * @param timeout         {@code cli.timeout}: how long each request waits for the server's answer
 */
public record ClientSettings(Optional<URI> address, Optional<String> apiKey, boolean insecure, Path localCredential,
        String credentialOrigin, Duration timeout) {

    /** {@code cli.timeout} when it is not set, as the configuration's schema has it. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    static final String SECTION = "cli";
    private static final String ENV_PREFIX = "SVC_CLI_";
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    /**
     * Reads the {@code cli} section of {@code configFile} (none: built-in defaults) and lays the {@code SVC_CLI_*}
     * variables of {@code env} over it.
     *
     * @param workingDir a relative {@code cli.local_credential_path} is resolved against it, as the server does
     * @param home       the user's home folder, for the default credential location
     * @param durations  the configuration's parser of Go durations ({@code 10s}, {@code 1m30s}), for
     *                   {@code cli.timeout}: passed in, as this module does not see the configuration's code; it
     *                   throws {@link IllegalArgumentException} with the reason for text that is not a duration
     * @throws ClientSettingsException naming the first key that is wrong, and where it was set
     */
    public static ClientSettings read(Optional<Path> configFile, Map<String, String> env, Path workingDir, Path home,
            Function<String, Duration> durations) {
        JsonNode section = configFile.map(ClientSettings::section).orElse(null);
        Values values = new Values(section, configFile.map(Path::toString).orElse(""), env);
        Optional<URI> address = values.text("address").map(text -> parseAddress(text, values.origin("address")));
        boolean insecure = values.bool("insecure");
        Optional<Path> configured = values.text("local_credential_path")
                .map(text -> parsePath(text, values.origin("local_credential_path")));
        Path credential = configured.map(path -> workingDir.resolve(path).normalize())
                .orElseGet(() -> LocalAccess.defaultLocation(env, home));
        String origin = configured.isPresent() ? values.origin("local_credential_path")
                : "the default, as cli.local_credential_path is not set";
        Duration timeout = values.written("timeout").map(text -> parseTimeout(text, durations, values.origin("timeout")))
                .orElse(DEFAULT_TIMEOUT);
        return new ClientSettings(address, values.text("api_key"), insecure, credential, origin, timeout);
    }

    /**
     * A client of the server these settings name: {@code cli.address} with {@code cli.api_key}, else the server
     * running on this machine through its credential file. The local token is sent only to the run of the server
     * that wrote the file: its process must be alive (a server killed with SIGKILL leaves its file behind) and the
     * program answering at the file's URL must name the file's instance on {@code /version}, asked without the
     * token (another program may have taken the port since).
     *
     * @throws ClientSettingsException      when an address is set without an API key
     * @throws LocalServerNotFoundException when no local server's credential is found, or the server that wrote it
     *                                      is not the one running
     */
    public MeshClient open(String clientVersion, Consumer<String> warnings) {
        if (address.isPresent()) {
            String key = apiKey.orElseThrow(() -> new ClientSettingsException("cli.address is set to " + address.get()
                    + " but no API key is configured: set cli.api_key or SVC_CLI_API_KEY"));
            return new MeshClient(address.get(), key, insecure, clientVersion, warnings, timeout);
        }
        LocalAccess access;
        try {
            access = LocalAccess.read(localCredential);
        } catch (NoSuchFileException e) {
            throw new LocalServerNotFoundException("no server is running on this machine: there is no credential at "
                    + localCredential + " (" + credentialOrigin + ")");
        } catch (IOException e) {
            throw new LocalServerNotFoundException("cannot read the local server credential " + localCredential + " ("
                    + credentialOrigin + "): " + e.getMessage() + "; only the account that runs the server, or root,"
                    + " can use the local CLI without an API key");
        }
        URI url = URI.create(access.url());
        // A server serving HTTPS is reached over loopback, which its certificate does not name: the certificate is
        // not checked, and the instance check below is what keeps the token from another program on the port.
        boolean loopbackHttps = "https".equalsIgnoreCase(url.getScheme());
        // The check and the commands share one HTTP client (and connection): setting one up costs a CLI call.
        MeshClient anonymous = new MeshClient(url, null, loopbackHttps, clientVersion, sameWarningLater -> { },
                timeout);
        verifyWriterAnswers(access, url, anonymous);
        return anonymous.withToken(access.token(), warnings);
    }

    private void verifyWriterAnswers(LocalAccess access, URI url, MeshClient anonymous) {
        if (access.pid() == null || access.instance() == null) {
            throw new LocalServerNotFoundException("the credential " + localCredential + " (" + credentialOrigin
                    + ") does not say which server wrote it (a server of an earlier version did); restart that server");
        }
        String writer = "the local server that wrote " + localCredential + " (process " + access.pid() + ")";
        if (!access.writerRunning()) {
            throw new LocalServerNotFoundException(writer + " is no longer running");
        }
        Optional<String> answering;
        try {
            answering = anonymous.instance();
        } catch (ServerUnreachableException | ApiException e) {
            throw new LocalServerNotFoundException(writer + " does not answer at " + url + ": " + e.getMessage());
        }
        if (!answering.equals(Optional.of(access.instance()))) {
            throw new LocalServerNotFoundException("the program answering at " + url + " is not " + writer
                    + "; the local credential was not sent to it");
        }
    }

    @Override
    public String toString() {
        return "ClientSettings[address=" + address + ", apiKey=" + apiKey.map(secret -> "(redacted)")
                + ", insecure=" + insecure + ", localCredential=" + localCredential + ", timeout=" + timeout + "]";
    }

    /** The {@code cli} mapping of the file; null when it has none. Everything else in the file is left alone. */
    private static JsonNode section(Path file) {
        String text;
        JsonNode root;
        try {
            text = Files.readString(file);
            root = YAML.readTree(text);
        } catch (IOException e) {
            throw new ClientSettingsException("cannot read " + file + ": " + e.getMessage());
        } catch (JacksonException e) {
            TokenStreamLocation at = e.getLocation();
            String where = at == null || at.getLineNr() < 0 ? "" : " at line " + at.getLineNr();
            throw new ClientSettingsException(file + " is not valid YAML" + where + "; 'svc configtest' shows why");
        }
        refuseAliasesInSection(text, file);
        JsonNode section = root == null || !root.isObject() ? null : root.get(SECTION);
        if (section == null || section.isNull()) {
            return null;
        }
        if (!section.isObject()) {
            throw new ClientSettingsException(SECTION + ": must be a mapping of keys, in " + file);
        }
        return section;
    }

    /**
     * The server resolves YAML aliases in the file (core.config.YamlTree), with limits that would have to be kept in
     * step here; this reader takes the {@code cli} section as written instead, and says so rather than reading
     * {@code *name} as the text "name" (docs/configuration.md, "Anchors and aliases").
     */
    private static void refuseAliasesInSection(String text, Path file) {
        try (JsonParser parser = YAML.createParser(text)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                JsonPointer at = parser.streamReadContext().pathAsPointer();
                if (((YAMLParser) parser).isCurrentAlias() && SECTION.equals(at.getMatchingProperty())) {
                    String key = at.tail().matches() ? SECTION : SECTION + at.tail().toString().replace('/', '.');
                    throw new ClientSettingsException(key + ": is an alias (*" + parser.getString() + ") at line "
                            + parser.currentTokenLocation().getLineNr() + " of " + file + "; the CLI reads its section"
                            + " as written: put the value itself there");
                }
            }
        }
    }

    /** The value of a key: its {@code SVC_CLI_} variable when set, else the file's, else none. */
    private record Values(JsonNode section, String file, Map<String, String> env) {

        private static String envName(String key) {
            return ENV_PREFIX + key.toUpperCase(Locale.ROOT);
        }

        /** The variable's text as a string node when it is set, else the file's node; null when neither has one. */
        private JsonNode node(String key) {
            String fromEnv = env.get(envName(key));
            if (fromEnv != null) {
                return StringNode.valueOf(fromEnv);
            }
            return section == null ? null : section.get(key);
        }

        /** Text of the key; none when unset, null or empty (the empty string means "none" here, as for the server). */
        Optional<String> text(String key) {
            return written(key).filter(text -> !text.isEmpty());
        }

        /** Text of the key as written, the empty string too (a duration has no "none"); none when unset or null. */
        Optional<String> written(String key) {
            JsonNode node = node(key);
            if (node == null || node.isNull()) {
                return Optional.empty();
            }
            if (node.isContainer()) {
                throw new ClientSettingsException(SECTION + "." + key + ": must be a single value, not a "
                        + (node.isArray() ? "list" : "mapping") + ", " + origin(key));
            }
            return Optional.of(node.asString());
        }

        /** A YAML boolean, or one of the literals the server's configuration accepts; unset or empty is false. */
        boolean bool(String key) {
            JsonNode node = node(key);
            if (node != null && node.isBoolean()) {
                return node.booleanValue();
            }
            return text(key).map(text -> switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "true", "1", "yes" -> true;
                case "false", "0", "no" -> false;
                default -> throw new ClientSettingsException(SECTION + "." + key + ": must be true or false (or 1/0,"
                        + " yes/no) (got \"" + text + "\"), " + origin(key));
            }).orElse(false);
        }

        String origin(String key) {
            return env.containsKey(envName(key)) ? "set by " + envName(key) : "in " + file;
        }
    }

    private static URI parseAddress(String text, String origin) {
        String withScheme = text.contains("://") ? text : "https://" + text;
        try {
            URI uri = new URI(withScheme);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null && !uri.getHost().isEmpty()) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw new ClientSettingsException("cli.address: must be an http:// or https:// URL, or a host with an optional"
                + " port (got \"" + text + "\"), " + origin);
    }

    /** As the server's schema checks {@code cli.timeout}: a Go duration of at least 1ms. */
    private static Duration parseTimeout(String text, Function<String, Duration> durations, String origin) {
        Duration timeout;
        try {
            timeout = durations.apply(text.trim());
        } catch (IllegalArgumentException e) {
            throw new ClientSettingsException("cli.timeout: " + e.getMessage() + ", " + origin);
        }
        if (timeout.compareTo(Duration.ofMillis(1)) < 0) {
            throw new ClientSettingsException("cli.timeout: must be at least 1ms (got \"" + text + "\"), " + origin);
        }
        return timeout;
    }

    private static Path parsePath(String text, String origin) {
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            throw new ClientSettingsException("cli.local_credential_path: is not a valid file path (got \"" + text
                    + "\"), " + origin);
        }
    }
}
