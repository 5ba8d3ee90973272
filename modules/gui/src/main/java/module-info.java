/** The JavaFX admin app: a client of a server's /api/v1 (filled by the desktop-app issue). */
module io.meshcontrol.gui {
}
