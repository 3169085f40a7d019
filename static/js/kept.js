// What a game page keeps in the browser's storage (issue 32 item 5), per game (its path):
// - the actions made while the server could not be reached, in order, with the board version
//   the first was made on and #main as the server last drew it ("patience-kept:PATH");
// - #main as the server last drew it, whenever nothing is drawn ahead of it
//   ("patience-page:PATH"): a page the service worker serves without the network shows it.
// Storage may be full or refused (private browsing): then nothing is kept, and nothing fails.
const KEPT = "patience-kept:";
const PAGE = "patience-page:";
const PAGES = "patience-pages"; // the paths of the pages kept, newest last
const MAX_PAGES = 8;

function read(key) {
  try {
    const text = window.localStorage.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch (e) {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch (e) {
    return false;
  }
}

export function load(path) {
  const record = read(KEPT + path);
  return record && typeof record === "object" ? record : null;
}

/** Markup as the server sent it: without what htmx and this page's scripts added to it. */
export function clean(html) {
  return html.replace(/ data-htmx-powered="true"/g, "").replace(/ htmx-(added|settling|swapping|request)\b/g, "");
}

export function keep(path, record) {
  write(KEPT + path, { ...record, main: record.main ? clean(record.main) : null });
}

export function forget(path) {
  write(KEPT + path, null);
}

export function snapshot(path) {
  const page = read(PAGE + path);
  return page && typeof page.main === "string" ? page.main : null;
}

let timer = null;

/** Keep #main as the server drew it, when the page is idle (an answer is not slowed by it). */
export function snapshotSoon(pathOf, htmlOf) {
  clearTimeout(timer);
  timer = setTimeout(() => {
    const path = pathOf();
    const html = htmlOf();
    if (!path || html === null) return;
    if (!write(PAGE + path, { main: clean(html) })) return;
    const paths = (read(PAGES) || []).filter((p) => p !== path);
    paths.push(path);
    while (paths.length > MAX_PAGES) write(PAGE + paths.shift(), null);
    write(PAGES, paths);
  }, 300);
}
