package io.meshcontrol.api;

import java.util.List;

/** {@code GET /api/v1/auth/ssh-check}: the SSH checks waiting for a decision, soonest to lapse first. */
public record SshCheckList(List<SshCheckView> sshChecks) {
}
