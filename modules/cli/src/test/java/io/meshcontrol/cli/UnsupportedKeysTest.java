package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ClientSettings;
import io.meshcontrol.core.config.ConfigKey;
import io.meshcontrol.core.config.ConfigSchema;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.relay.map.DerpMapFile;
import io.meshcontrol.notify.Notifications;
import io.meshcontrol.server.MeshServer;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every configuration key is either read by the product or marked as not supported yet in {@link ConfigSchema}, and
 * no marked key is read. "Read" means: the compiled code of the cli, server, notify and relay modules, or of core outside its
 * config package, calls the key's accessor on the {@link MeshConfig} record tree. A developer who adds a key must use
 * it or mark it; one who starts using a marked key must drop the mark (and docs/configuration.md says so).
 */
class UnsupportedKeysTest {

    private static final String MESH_CONFIG = MeshConfig.class.getName().replace('.', '/');

    /**
     * The records' own methods that read components, and the keys they read: calling one counts as reading those keys.
     * {@link #everyDerivedMethodOfTheConfigRecordsIsListed} keeps this table complete.
     */
    private static final Map<String, List<String>> DERIVED = Map.of(
            "MeshConfig$Tls.enabled", List.of("tls_cert_path", "tls_letsencrypt_hostname"),
            "MeshConfig$Oidc.enabled", List.of("oidc.issuer"),
            "MeshConfig$Smtp.enabled", List.of("notifications.smtp.host"),
            "MeshConfig$Smtp.effectivePort", List.of("notifications.smtp.port", "notifications.smtp.encryption"));

    /** Accessors called outside core.config, as "owner-internal-name.accessor". */
    private static Set<String> called;

    /**
     * The string constants of the api module's {@link ClientSettings}, which reads the {@code cli} section itself
     * (the CLI's client side does not load the server's configuration): a {@code cli.*} key whose leaf it names is read.
     */
    private static Set<String> clientSettingsNames;

    @BeforeAll
    static void scanCompiledCode() throws IOException {
        called = new HashSet<>();
        clientSettingsNames = new HashSet<>();
        String clientSettings = ClientSettings.class.getName().replace('.', '/');
        for (ClassFile file : classFiles(ClientSettings.class)) {
            if (file.name().startsWith(clientSettings)) {
                clientSettingsNames.addAll(constantPool(file.bytes()).strings());
            }
        }
        for (Class<?> anchor : List.of(ServeCommand.class, MeshServer.class, DerpMapFile.class, Notifications.class,
                ConfigSchema.class)) {
            for (ClassFile file : classFiles(anchor)) {
                if (!file.name().startsWith("io/meshcontrol/core/config/")) {
                    called.addAll(constantPool(file.bytes()).meshConfigAccessors());
                }
            }
        }
    }

    @Test
    void everyKeyIsReadOrMarkedAsNotSupportedYet() {
        Set<String> neither = new TreeSet<>();
        Set<String> both = new TreeSet<>();
        for (ConfigKey key : ConfigSchema.instance().keys()) {
            boolean read = called.contains(accessor(key.path())) || readThroughADerivedMethod(key.path())
                    || readByTheClientSettings(key.path()) || admitsOnlyItsDefault(key);
            boolean marked = key.support() != ConfigKey.Support.SUPPORTED;
            if (!read && !marked) {
                neither.add(key.path());
            }
            if (read && marked) {
                both.add(key.path());
            }
        }
        assertEquals(Set.of(), neither, "keys nothing reads: use them, or mark them .notYet(...) in ConfigSchema "
                + "(and list them in docs/configuration.md)");
        assertEquals(Set.of(), both, "keys marked as not supported yet that the code reads: drop the mark in "
                + "ConfigSchema and docs/configuration.md");
    }

    @Test
    void theScanSeesKnownReadsAndMapsEveryKeyToAnAccessor() {
        // Guards the test itself: a scan that found nothing would call every marked key honest.
        assertTrue(called.contains(accessor("derp.server.region_id")), called.toString());
        assertTrue(called.contains(accessor("listen_addr")), called.toString());
        assertTrue(readByTheClientSettings("cli.api_key"), clientSettingsNames.toString());
        ConfigSchema.instance().keys().forEach(key -> accessor(key.path()));
    }

    @Test
    void everyDerivedMethodOfTheConfigRecordsIsListed() {
        Set<String> derived = new TreeSet<>();
        List<Class<?>> records = new ArrayList<>(List.of(MeshConfig.class.getDeclaredClasses()));
        records.add(MeshConfig.class);
        for (Class<?> record : records) {
            if (!record.isRecord()) {
                continue;
            }
            Set<String> components = new HashSet<>();
            Stream.of(record.getRecordComponents()).forEach(c -> components.add(c.getName()));
            for (Method method : record.getDeclaredMethods()) {
                if (Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers())
                        && method.getParameterCount() == 0 && !components.contains(method.getName())
                        && !List.of("toString", "hashCode").contains(method.getName())) {
                    derived.add(record.getName().substring(record.getPackageName().length() + 1) + "." + method.getName());
                }
            }
        }
        assertEquals(new TreeSet<>(DERIVED.keySet()), derived, "list each derived method with the keys it reads");
    }

    private static boolean readByTheClientSettings(String path) {
        return path.startsWith("cli.") && clientSettingsNames.contains(path.substring(4));
    }

    private static boolean readThroughADerivedMethod(String path) {
        String prefix = MESH_CONFIG.substring(0, MESH_CONFIG.lastIndexOf('/') + 1);
        return DERIVED.entrySet().stream()
                .anyMatch(entry -> entry.getValue().contains(path) && called.contains(prefix + entry.getKey()));
    }

    /** A choice with a single word (database.type: sqlite) has nothing to act on: the check of the value is all. */
    private static boolean admitsOnlyItsDefault(ConfigKey key) {
        return key.choices().size() == 1;
    }

    /**
     * The record accessor a key binds to, found by walking {@link MeshConfig}'s components with the key's segments in
     * camel case. The flat TLS keys live in {@code tls} and {@code tls.lets_encrypt}.
     */
    private static String accessor(String path) {
        String dotted = path.startsWith("tls_letsencrypt_") ? "tls.lets_encrypt." + path.substring(16)
                : path.startsWith("acme_") ? "tls.lets_encrypt." + path
                : path.startsWith("tls_") ? "tls." + path.substring(4)
                : path;
        Class<?> owner = MeshConfig.class;
        String[] segments = dotted.split("\\.");
        for (int i = 0; i < segments.length; i++) {
            String name = camel(segments[i]);
            Class<?> record = owner;
            RecordComponent component = Stream.of(record.getRecordComponents())
                    .filter(c -> c.getName().equals(name)).findFirst()
                    .orElseThrow(() -> new AssertionError(path + ": " + record.getSimpleName() + " has no " + name));
            if (i == segments.length - 1) {
                return owner.getName().replace('.', '/') + "." + name;
            }
            owner = component.getType();
        }
        throw new AssertionError(path);
    }

    private static String camel(String segment) {
        StringBuilder out = new StringBuilder();
        boolean upper = false;
        for (char c : segment.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return out.toString();
    }

    private record ClassFile(String name, byte[] bytes) {
    }

    /** The class files beside {@code anchor}: its output directory or its jar. */
    private static List<ClassFile> classFiles(Class<?> anchor) throws IOException {
        Path location;
        try {
            location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        List<ClassFile> files = new ArrayList<>();
        if (Files.isDirectory(location)) {
            try (Stream<Path> walk = Files.walk(location)) {
                for (Path file : walk.filter(p -> p.toString().endsWith(".class")).toList()) {
                    files.add(new ClassFile(location.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file)));
                }
            }
        } else {
            try (ZipFile jar = new ZipFile(location.toFile())) {
                for (var entry : jar.stream().filter(e -> e.getName().endsWith(".class")).toList()) {
                    try (InputStream in = jar.getInputStream(entry)) {
                        files.add(new ClassFile(entry.getName(), in.readAllBytes()));
                    }
                }
            }
        }
        assertTrue(!files.isEmpty(), "no classes at " + location);
        return files;
    }

    /**
     * What a class file's constant pool (JVMS 4.4) tells: the no-argument methods of {@code MeshConfig} and its nested
     * records it refers to (calls and method references alike), and its string constants.
     */
    private record ConstantPool(Set<String> meshConfigAccessors, Set<String> strings) {
    }

    private static ConstantPool constantPool(byte[] classFile) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(classFile))) {
            in.readInt(); // magic
            in.readUnsignedShort(); // minor
            in.readUnsignedShort(); // major
            int count = in.readUnsignedShort();
            Map<Integer, String> utf8 = new HashMap<>();
            Map<Integer, Integer> classNames = new HashMap<>();
            Map<Integer, int[]> nameAndTypes = new HashMap<>();
            List<int[]> methodRefs = new ArrayList<>();
            List<Integer> strings = new ArrayList<>();
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8.put(i, in.readUTF());
                    case 3, 4 -> in.readInt();
                    case 5, 6 -> {
                        in.readLong();
                        i++; // takes two entries
                    }
                    case 7 -> classNames.put(i, in.readUnsignedShort());
                    case 8 -> strings.add(in.readUnsignedShort());
                    case 16, 19, 20 -> in.readUnsignedShort();
                    case 9, 11 -> in.readInt();
                    case 10 -> methodRefs.add(new int[] {in.readUnsignedShort(), in.readUnsignedShort()});
                    case 12 -> nameAndTypes.put(i, new int[] {in.readUnsignedShort(), in.readUnsignedShort()});
                    case 15 -> {
                        in.readUnsignedByte();
                        in.readUnsignedShort();
                    }
                    case 17, 18 -> in.readInt();
                    default -> throw new IllegalStateException("constant pool tag " + tag);
                }
            }
            Set<String> found = new HashSet<>();
            for (int[] ref : methodRefs) {
                String owner = utf8.get(classNames.get(ref[0]));
                int[] nameAndType = nameAndTypes.get(ref[1]);
                String descriptor = utf8.get(nameAndType[1]);
                if (owner.startsWith(MESH_CONFIG) && descriptor.startsWith("()")) {
                    found.add(owner + "." + utf8.get(nameAndType[0]));
                }
            }
            Set<String> texts = new HashSet<>();
            strings.forEach(index -> texts.add(utf8.get(index)));
            return new ConstantPool(found, texts);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
