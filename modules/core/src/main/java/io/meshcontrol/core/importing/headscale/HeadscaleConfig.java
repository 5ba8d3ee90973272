package io.meshcontrol.core.importing.headscale;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.config.ConfigSchema;
import io.meshcontrol.core.config.ValueType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * headscale's {@code config.yaml}, flattened to dotted keys, and its translation into this server's configuration:
 * most keys have the same name and meaning here and are carried as they are; a few are renamed; headscale defaults
 * that differ from ours are written out so that the network behaves as before; the rest is named with the reason it
 * is not carried.
 */
final class HeadscaleConfig {

    /** A headscale key that the generated configuration does not carry, and why. */
    record NotCarried(String key, String reason) {
    }

    /** The generated configuration (dotted key to value) and what was left out. */
    record Translation(Map<String, JsonNode> carried, List<NotCarried> notCarried) {
    }

    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private static final Map<String, String> RENAMED = Map.of(
            "derp.server.automatically_add_embedded_derp_region", "derp.automatically_add_embedded_derp_region",
            "node.routes.ha.probe_interval", "node.routes.ha_probe_interval",
            "node.routes.ha.probe_timeout", "node.routes.ha_probe_timeout",
            "ephemeral_node_inactivity_timeout", "node.ephemeral.inactivity_timeout",
            "derp.server.stun.enabled", "derp.server.stun_enabled");

    /** Keys (or sections, ending in a dot) that are not carried, with the reason. */
    private static final Map<String, String> NOT_CARRIED = new LinkedHashMap<>();

    static {
        NOT_CARRIED.put("database.", "svc keeps its own database (database.sqlite.path); the import copies headscale's "
                + "rows into it");
        NOT_CARRIED.put("noise.private_key_path", "the import copies this key into svc's noise.private_key_path, so "
                + "clients keep talking to the same key");
        NOT_CARRIED.put("derp.server.private_key_path", "svc makes its own relay key; clients learn a relay's key when "
                + "they connect to it");
        NOT_CARRIED.put("policy.mode", "the policy is imported into svc's database (policy.mode: database)");
        NOT_CARRIED.put("policy.path", "the policy is imported into svc's database; to keep editing a file, set "
                + "policy.mode: file and policy.path to a copy of it");
        NOT_CARRIED.put("grpc_listen_addr", "svc has no gRPC API: its CLI and tools use the HTTP API on listen_addr");
        NOT_CARRIED.put("grpc_allow_insecure", "svc has no gRPC API");
        NOT_CARRIED.put("unix_socket", "svc's CLI reaches the local server over HTTP with the credential file "
                + "cli.local_credential_path, not a socket");
        NOT_CARRIED.put("unix_socket_permission", "svc has no control socket");
        NOT_CARRIED.put("disable_check_updates", "svc does not look for updates of itself");
        NOT_CARRIED.put("logtail.", "svc never tells clients to send their logs to Tailscale's log service");
        NOT_CARRIED.put("taildrop.", "svc has no switch for Taildrop; peers' sharing follows the policy");
        NOT_CARRIED.put("auto_update.", "svc has no network-wide default for client auto-updates");
        NOT_CARRIED.put("trusted_proxies", "svc has no list of trusted proxies: it logs the connection's address");
        NOT_CARRIED.put("tuning.", "headscale's internal tuning has no counterpart");
        NOT_CARRIED.put("dns.extra_records_path", "svc reads no records file: copy the records into dns.extra_records");
        NOT_CARRIED.put("oidc.strip_email_domain", "svc names OIDC users by their e-mail address and keeps the imported "
                + "names");
        NOT_CARRIED.put("oidc.map_legacy_users", "the import links users to their OIDC identities itself");
        NOT_CARRIED.put("cli.", "the headscale CLI's settings do not apply to svc's CLI (see cli.* in docs/cli.md)");
    }

    /** headscale defaults that differ from ours: written out when headscale's file leaves them unset. */
    private static final Map<String, JsonNode> HEADSCALE_DEFAULTS = new LinkedHashMap<>();

    static {
        JsonNodeFactory json = JsonNodeFactory.instance;
        HEADSCALE_DEFAULTS.put("derp.server.enabled", json.booleanNode(false));
        HEADSCALE_DEFAULTS.put("derp.urls", json.arrayNode());
        HEADSCALE_DEFAULTS.put("derp.update_frequency", json.stringNode("3h"));
        HEADSCALE_DEFAULTS.put("dns.override_local_dns", json.booleanNode(true));
        HEADSCALE_DEFAULTS.put("node.ephemeral.inactivity_timeout", json.stringNode("120s"));
        HEADSCALE_DEFAULTS.put("oidc.pkce.enabled", json.booleanNode(false));
    }

    private final Map<String, JsonNode> entries;

    private HeadscaleConfig(Map<String, JsonNode> entries) {
        this.entries = entries;
    }

    static HeadscaleConfig read(Path file) {
        try {
            JsonNode root = YAML.readTree(Files.readString(file));
            Map<String, JsonNode> entries = new LinkedHashMap<>();
            if (root != null && root.isObject()) {
                flatten("", root, entries);
            }
            return new HeadscaleConfig(entries);
        } catch (IOException | JacksonException e) {
            throw MeshException.invalid("cannot read the headscale configuration " + file + ": " + e.getMessage());
        }
    }

    static HeadscaleConfig of(Map<String, JsonNode> entries) {
        return new HeadscaleConfig(new LinkedHashMap<>(entries));
    }

    /** A key's text value, if set and not empty. */
    Optional<String> text(String key) {
        JsonNode node = entries.get(key);
        return node == null || node.isNull() || node.isContainer() || node.asString().isEmpty()
                ? Optional.empty() : Optional.of(node.asString());
    }

    /** Descends into mappings; the mapping values of our keys that take one are kept whole. */
    private static void flatten(String prefix, JsonNode node, Map<String, JsonNode> entries) {
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String path = prefix + field.getKey();
            JsonNode value = field.getValue();
            // A mapping is one value only where our key takes a mapping (split DNS, extra_params); elsewhere it is
            // a section, even where we have a plain key of that name (headscale's node.routes.ha holds settings).
            boolean mapValue = ConfigSchema.instance().key(path).map(key -> key.type() == ValueType.STRING_MAP
                    || key.type() == ValueType.STRING_LIST_MAP).orElse(false);
            if (value.isObject() && !mapValue && !value.isEmpty()) {
                flatten(path + ".", value, entries);
            } else {
                entries.put(path, value);
            }
        }
    }

    Translation translate() {
        Map<String, JsonNode> carried = new LinkedHashMap<>();
        List<NotCarried> notCarried = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : entries.entrySet()) {
            String key = entry.getKey();
            String reason = reasonNotCarried(key);
            if (reason != null) {
                notCarried.add(new NotCarried(key, reason));
                continue;
            }
            String ours = RENAMED.getOrDefault(key, key);
            if (ConfigSchema.instance().key(ours).isEmpty()) {
                notCarried.add(new NotCarried(key, "svc has no such setting"));
                continue;
            }
            carried.put(ours, durationInHours(ours, entry.getValue()));
        }
        HEADSCALE_DEFAULTS.forEach((key, value) -> {
            boolean set = carried.containsKey(key) || entries.keySet().stream()
                    .anyMatch(k -> RENAMED.getOrDefault(k, k).equals(key));
            if (!set) {
                carried.put(key, value);
            }
        });
        // headscale 0.29 gives machines of OIDC logins node.expiry (oidc.expiry is gone there); ours has its own key.
        if (carried.containsKey("oidc.issuer") && !carried.containsKey("oidc.expiry")) {
            carried.put("oidc.expiry", carried.getOrDefault("node.expiry", JsonNodeFactory.instance.stringNode("0s")));
        }
        // The OIDC keys are written only when OIDC is used at all.
        if (!carried.containsKey("oidc.issuer")) {
            carried.keySet().removeIf(key -> key.startsWith("oidc."));
        }
        return new Translation(carried, notCarried);
    }

    private static final Pattern LONG_UNITS = Pattern.compile("(?:(\\d+)y)?(?:(\\d+)w)?(?:(\\d+)d)?(?:(\\d+)h)?(.*)");

    /**
     * headscale reads durations with years, weeks and days ({@code 180d}, {@code 1w2d}); ours stop at hours, so those
     * units become hours. {@code 0} means none in both.
     */
    static JsonNode durationInHours(String key, JsonNode value) {
        boolean duration = ConfigSchema.instance().key(key).map(k -> k.type() == ValueType.DURATION).orElse(false);
        if (!duration || !value.isString()) {
            return value;
        }
        String text = value.asString().strip();
        if (text.equals("0")) {
            return JsonNodeFactory.instance.stringNode("0s");
        }
        Matcher units = LONG_UNITS.matcher(text);
        if (!units.matches() || (units.group(1) == null && units.group(2) == null && units.group(3) == null)) {
            return value;
        }
        long hours = 24 * (365 * number(units.group(1)) + 7 * number(units.group(2)) + number(units.group(3)))
                + number(units.group(4));
        return JsonNodeFactory.instance.stringNode(hours + "h" + units.group(5));
    }

    private static long number(String digits) {
        return digits == null ? 0 : Long.parseLong(digits);
    }

    private static String reasonNotCarried(String key) {
        for (Map.Entry<String, String> entry : NOT_CARRIED.entrySet()) {
            String pattern = entry.getKey();
            if (pattern.endsWith(".") ? key.startsWith(pattern) : key.equals(pattern)) {
                return entry.getValue();
            }
        }
        return null;
    }

    /** The carried keys as a nested YAML document, then the keys not carried as comments. */
    static String yaml(Translation translation, List<String> header) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        translation.carried().forEach((key, value) -> {
            ObjectNode section = root;
            String[] parts = key.split("\\.");
            for (int i = 0; i < parts.length - 1; i++) {
                JsonNode child = section.get(parts[i]);
                section = child instanceof ObjectNode object ? object : section.putObject(parts[i]);
            }
            section.set(parts[parts.length - 1], value);
        });
        StringBuilder out = new StringBuilder();
        header.forEach(line -> out.append("# ").append(line).append('\n'));
        String body = YAML.writeValueAsString(root);
        out.append(body.startsWith("---\n") ? body.substring(4) : body);
        if (!translation.notCarried().isEmpty()) {
            out.append("\n# Not carried from headscale's configuration:\n");
            translation.notCarried().forEach(n -> out.append("#   ").append(n.key()).append(": ").append(n.reason())
                    .append('\n'));
        }
        return out.toString();
    }
}
