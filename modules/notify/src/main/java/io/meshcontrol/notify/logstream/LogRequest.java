package io.meshcontrol.notify.logstream;

import java.util.Map;

/**
 * One POST to a log destination: its headers (content type and authentication included) and body.
 */
record LogRequest(Map<String, String> headers, byte[] body) {

    LogRequest {
        headers = Map.copyOf(headers);
    }
}
