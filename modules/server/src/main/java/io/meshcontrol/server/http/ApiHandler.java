package io.meshcontrol.server.http;

/** One API operation. Runs on a virtual thread, so it may block; refusals are thrown as MeshException. */
@FunctionalInterface
public interface ApiHandler {

    Reply handle(ApiRequest request) throws Exception;
}
