// The page of a broken table's link (templates/tables/dealer_closed.html). Actions the tablet
// kept while it was offline are sent all the same: each comes back "not applied" with the
// reason, shown here, and the floor is told (./tablet_queue.js). Nothing is dropped silently.
import { TabletQueue } from "./tablet_queue.js";

const main = document.getElementById("dealer-closed");
new TabletQueue({
  token: main.dataset.token,
  base: main.dataset.base,
  texts: JSON.parse(document.getElementById("tablet-texts").textContent),
  csrf: main.dataset.csrf,
});
