// The words of index.html (its data-text attributes), written here as _() calls so that the catalogue's
// extractor finds them.
import { _ } from "./i18n.js";

export const PAGE_WORDS = () => [_("Play"), _("Replays"), _("Leaderboards"), _("Language"), _("Main menu")];
