package io.meshcontrol.core.policy;

import java.util.List;

/**
 * One {@code sshTests} entry: from {@code src}, SSH to every {@code dst} machine must be accepted as the
 * {@code accept} users, accepted after a check as the {@code check} users, and refused as the {@code deny} users.
 */
public record SshTest(String src, List<String> dst, List<String> accept, List<String> check, List<String> deny) {

    public SshTest {
        dst = List.copyOf(dst);
        accept = List.copyOf(accept);
        check = List.copyOf(check);
        deny = List.copyOf(deny);
    }
}
