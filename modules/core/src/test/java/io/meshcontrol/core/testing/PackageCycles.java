package io.meshcontrol.core.testing;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The package dependencies of one module's compiled classes, and the cycles among them. Read from the bytecode (every
 * class, descriptor and signature a class file names, but not its string constants, which may be resource paths), so
 * a fully qualified name or a type used only in a signature counts as an import would. Architecture tests use it to
 * keep each module's packages free of cycles: {@code assertEquals(List.of(), PackageCycles.of(AnyRootClass.class).cycles())}.
 */
public final class PackageCycles {

    private static final Pattern TYPE_NAME = Pattern.compile("io/meshcontrol/[A-Za-z0-9_/$]+");

    private final Map<String, Set<String>> dependencies;

    private PackageCycles(Map<String, Set<String>> dependencies) {
        this.dependencies = dependencies;
    }

    /**
     * The packages at and under {@code anchor}'s package in the classes folder (or jar) that holds it: for a module,
     * a class of its root package.
     */
    public static PackageCycles of(Class<?> anchor) {
        try {
            return in(Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI()),
                    anchor.getPackageName());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The packages at and under {@code root} among the class files under {@code classes}. */
    public static PackageCycles in(Path classes, String root) {
        Map<String, Set<String>> dependencies = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String from = packageOf(classes.relativize(file).toString().replace('\\', '/'));
                if (file.getFileName().toString().equals("module-info.class") || !within(from, root)) {
                    continue;
                }
                Set<String> targets = dependencies.computeIfAbsent(from, p -> new TreeSet<>());
                try (InputStream in = Files.newInputStream(file)) {
                    for (String named : namedTypes(in)) {
                        String to = packageOf(named);
                        if (!to.equals(from)) {
                            targets.add(to);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        dependencies.values().forEach(targets -> targets.retainAll(dependencies.keySet()));
        return new PackageCycles(dependencies);
    }

    private static boolean within(String name, String root) {
        return name.equals(root) || name.startsWith(root + ".");
    }

    /** Each package and the packages of the same module it uses. */
    public Map<String, Set<String>> dependencies() {
        return dependencies;
    }

    /**
     * The cycles, one line each ({@code a -> b -> a}), one per strongly connected set of packages, showing one
     * shortest loop through its first package; empty when the packages form a directed acyclic graph.
     */
    public List<String> cycles() {
        List<String> cycles = new ArrayList<>();
        for (Set<String> component : stronglyConnected()) {
            String start = component.iterator().next();
            cycles.add(String.join(" -> ", shortestLoop(start, component)) + "   (packages in the cycle: " + component + ")");
        }
        return cycles;
    }

    private List<Set<String>> stronglyConnected() {
        // Tarjan's algorithm; the graph is a few dozen packages, so recursion depth is no concern.
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> components = new ArrayList<>();
        int[] counter = {0};
        for (String node : dependencies.keySet()) {
            if (!index.containsKey(node)) {
                connect(node, index, low, stack, onStack, components, counter);
            }
        }
        return components;
    }

    private void connect(String node, Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack,
            Set<String> onStack, List<Set<String>> components, int[] counter) {
        index.put(node, counter[0]);
        low.put(node, counter[0]);
        counter[0]++;
        stack.push(node);
        onStack.add(node);
        for (String next : dependencies.getOrDefault(node, Set.of())) {
            if (!index.containsKey(next)) {
                connect(next, index, low, stack, onStack, components, counter);
                low.put(node, Math.min(low.get(node), low.get(next)));
            } else if (onStack.contains(next)) {
                low.put(node, Math.min(low.get(node), index.get(next)));
            }
        }
        if (low.get(node).equals(index.get(node))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                onStack.remove(member);
                component.add(member);
            } while (!member.equals(node));
            if (component.size() > 1) {
                components.add(component);
            }
        }
    }

    private List<String> shortestLoop(String start, Set<String> component) {
        Map<String, String> cameFrom = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            String node = queue.poll();
            for (String next : dependencies.get(node)) {
                if (next.equals(start)) {
                    List<String> loop = new ArrayList<>(List.of(start));
                    for (String at = node; !at.equals(start); at = cameFrom.get(at)) {
                        loop.add(0, at);
                    }
                    loop.add(0, start);
                    return loop;
                }
                if (component.contains(next) && !cameFrom.containsKey(next)) {
                    cameFrom.put(next, node);
                    queue.add(next);
                }
            }
        }
        return List.of(start);
    }

    private static String packageOf(String internalName) {
        String name = internalName.endsWith(".class") ? internalName.substring(0, internalName.length() - 6) : internalName;
        int slash = name.lastIndexOf('/');
        return slash < 0 ? "" : name.substring(0, slash).replace('/', '.');
    }

    /** The io.meshcontrol types a class file's constant pool names outside its string constants. */
    private static Set<String> namedTypes(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        in.readInt(); // magic
        in.readUnsignedShort(); // minor
        in.readUnsignedShort(); // major
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        Set<Integer> stringConstants = new TreeSet<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 8 -> stringConstants.add(in.readUnsignedShort());
                case 7, 16, 19, 20 -> in.readUnsignedShort();
                case 15 -> in.skipNBytes(3);
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                case 5, 6 -> {
                    in.skipNBytes(8);
                    i++;
                }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        Set<String> names = new TreeSet<>();
        for (int i = 1; i < count; i++) {
            if (utf8[i] != null && !stringConstants.contains(i)) {
                Matcher matcher = TYPE_NAME.matcher(utf8[i]);
                while (matcher.find()) {
                    names.add(matcher.group());
                }
            }
        }
        return names;
    }
}
