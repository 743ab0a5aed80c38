// A reference client of pyramid-solitaire's JSON-lines protocol, version 2, in Node.js
// (18+, standard library only), and a demo of it: `node examples/node/pyramid_client.mjs`.
//
// The protocol's truth is the server's source: python/pyramid_solitaire/session/server2.py
// (requests and answers), ops.py (each op's fields and answer) and events.py (the events of
// each change, and apply_events: what each event does to the table a client draws).
//
// What a client does, and this file shows:
//   - it starts `python -m pyramid_solitaire serve --stdio` (or the argv of the JSON array in
//     PYRAMID_SERVE) and says hello with protocol 2;
//   - every request has an id; answers come when ready, maybe out of order, and are matched by
//     id. Progress lines ("progress") and a batch's partial answers ("partial": true) come
//     before the final line of their request; "ok": false is an error (code, field);
//   - it keeps each game's table (project() of events.py) and changes it ONLY from the
//     answers' events (applyEvents, a port of apply_events): what a frontend animates.

import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import assert from "node:assert/strict";

// ---- the table: project() and apply_events() of events.py, ported ---------------------------

/** The waste piles' names: "waste" (draw one), or "waste:0".."waste:2" (draw three). */
function pileNames(n) {
  return n === 1 ? ["waste"] : Array.from({ length: n }, (_, k) => `waste:${k}`);
}

/** The table of a protocol state (events.py's project): what the events change. */
export function project(state) {
  const names = pileNames(state.waste.length);
  return {
    pyramid: state.pyramid.map((p) => p.card),
    free: state.pyramid.filter((p) => p.free).map((p) => p.index),
    stock: state.stock,
    stock_top: state.stock_top,
    waste: Object.fromEntries(state.waste.map((pile, i) => [names[i], [...pile]])),
    foundation: state.foundation,
    score: state.score,
    moves: state.moves,
    status: state.status,
    redeals_left: state.redeals_left,
    selection: state.selection === null ? null : state.selection.target,
    paused: state.paused,
  };
}

/** The table after `events` (events.py's apply_events); `table` itself is not changed. A
 * "deal" event means a new table: read it from the answer's state (project). */
export function applyEvents(table, events) {
  const t = structuredClone(table);
  const free = new Set(t.free);
  for (const e of events) {
    switch (e.type) {
      case "king":
      case "pair":
      case "draw":
      case "recycle":
      case "undo":
      case "redo":
        t.moves = e.moves;
        break;
      case "move": {
        const { card, from, to } = e;
        if (typeof from === "number") {
          if (t.pyramid[from] !== card) {
            throw new Error(`event ${JSON.stringify(e)}: pyramid ${from} holds ${t.pyramid[from]}`);
          }
          t.pyramid[from] = null;
          free.delete(from);
        } else if (from === "stock") {
          t.stock -= 1;
          if (t.stock_top === card) t.stock_top = null;
        } else if (from !== "foundation") {
          const pile = t.waste[from];
          if (!pile || pile[pile.length - 1] !== card) {
            throw new Error(`event ${JSON.stringify(e)}: ${from} is ${JSON.stringify(pile)}`);
          }
          pile.pop();
        }
        if (typeof to === "number") t.pyramid[to] = card;
        else if (to === "stock") t.stock += 1;
        else if (to !== "foundation") t.waste[to].push(card);
        break;
      }
      case "turn":
        t.stock_top = e.card;
        break;
      case "hide":
        t.stock_top = null;
        break;
      case "free":
        for (const i of e.targets) free.add(i);
        break;
      case "blocked":
        for (const i of e.targets) free.delete(i);
        break;
      case "foundation":
        t.foundation = e.top;
        break;
      case "score":
        t.score = e.score;
        break;
      case "redeals":
        t.redeals_left = e.left;
        break;
      case "status":
        t.status = e.status;
        break;
      case "select":
        t.selection = e.target;
        break;
      case "deselect":
        t.selection = null;
        break;
      case "pause":
      case "resume":
        t.paused = e.type === "pause";
        break;
      default: // "deal", or a type this client does not know
        throw new Error(`event ${e.type}: a new table, read it from the state`);
    }
  }
  t.free = [...free].sort((a, b) => a - b);
  return t;
}

/** One short line for an event: what an animation would show. */
export function describeEvent(e) {
  switch (e.type) {
    case "king":
      return `king ${e.card}`;
    case "pair":
      return `pair ${e.cards.join("+")}`;
    case "undo":
    case "redo":
      return `${e.type} ${e.move}`;
    case "move":
      return `move ${e.card} ${e.from} -> ${e.to}`;
    case "turn":
    case "hide":
      return `${e.type} ${e.card} at ${e.at}`;
    case "free":
    case "blocked":
      return `${e.type} ${e.targets.join(" ")}`;
    case "foundation":
      return `foundation ${e.top}`;
    case "score":
      return `score ${e.points >= 0 ? "+" : ""}${e.points} = ${e.score}`;
    case "redeals":
      return `redeals left ${e.left}`;
    case "status":
      return `status ${e.status}`;
    case "select":
      return `select ${e.target} ${e.card}`;
    default: // draw, recycle, deselect, pause, resume, deal
      return e.type;
  }
}

// ---- the client ---------------------------------------------------------------------------

/** An answer with "ok": false, as an Error: code (e.g. "cancelled", "unknown_game"), field
 * (the request's field at fault, when one is), op and id, and the whole answer. */
export class ProtocolError extends Error {
  constructor(answer) {
    const err = answer.error ?? {};
    super(`${answer.op ?? "request"} ${answer.id}: ${err.code}: ${err.message}`);
    this.name = "ProtocolError";
    this.code = err.code;
    this.field = err.field;
    this.op = answer.op;
    this.id = answer.id;
    this.answer = answer;
  }
}

/** The server's command: PYRAMID_SERVE (a JSON array of argv), else python -m ... serve. */
export function serveCommand(env = process.env) {
  if (env.PYRAMID_SERVE) {
    const argv = JSON.parse(env.PYRAMID_SERVE);
    if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === "string")) {
      throw new Error("PYRAMID_SERVE must be a JSON array of strings (the server's argv)");
    }
    return argv;
  }
  return ["python", "-m", "pyramid_solitaire", "serve", "--stdio"];
}

export class PyramidClient {
  /** Starts the server and says hello with protocol 2; resolves to a client. `onEvents(game,
   * events, table)`: called after each answer's events are applied to a game's table. */
  static async start({ command = serveCommand(), onEvents = null } = {}) {
    const client = new PyramidClient(command, onEvents);
    client.hello = await client.request("hello", { protocol: 2 });
    if (client.hello.protocol !== 2) {
      throw new Error(`hello answered protocol ${client.hello.protocol}, not 2`);
    }
    return client;
  }

  constructor(command, onEvents) {
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject, onLine}
    this.tables = new Map(); // game id -> table, built from events only
    this.onEvents = onEvents;
    this.child = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
    this.exited = once(this.child, "close"); // (close: after its last line was read)
    this.exited.catch(() => {}); // (a failed spawn: the requests are rejected, below)
    this.child.on("error", (err) => this.failAll(err));
    this.child.on("close", (code, signal) =>
      this.failAll(new Error(`the server exited (code ${code}, signal ${signal})`)),
    );
    this.child.stdin.on("error", () => {}); // (a server gone: the exit rejects the requests)
    createInterface({ input: this.child.stdout, crlfDelay: Infinity }).on("line", (line) =>
      this.receive(line),
    );
  }

  /** Sends one request; resolves to its final answer. Its progress lines and partial (batch)
   * answers go to onLine(line) first. An "ok": false answer rejects with a ProtocolError. */
  request(op, fields = {}, onLine = null) {
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onLine });
    });
    promise.id = id; // (what cancel names)
    this.child.stdin.write(JSON.stringify({ id, op, ...fields }) + "\n");
    return promise;
  }

  receive(line) {
    let answer;
    try {
      answer = JSON.parse(line);
    } catch {
      console.error(`not JSON from the server: ${line.slice(0, 200)}`);
      return;
    }
    const waiting = this.pending.get(answer.id);
    if (waiting === undefined) {
      // (id null: a line the server could not read at all)
      console.error(`an answer to no request: ${line.slice(0, 200)}`);
      return;
    }
    if ("progress" in answer || answer.partial === true) {
      waiting.onLine?.(answer);
      return;
    }
    this.pending.delete(answer.id);
    if (answer.ok === false) {
      waiting.reject(new ProtocolError(answer));
      return;
    }
    try {
      this.track(answer);
    } catch (err) {
      waiting.reject(err);
      return;
    }
    waiting.resolve(answer);
  }

  /** Keeps the tables: a "deal" event (new, import, load, restart) reads the answer's state;
   * any other events change the table they came for; close forgets it. */
  track(answer) {
    const game = answer.game;
    if (game === undefined) return;
    if (answer.op === "close") {
      this.tables.delete(game);
      return;
    }
    const events = answer.events;
    if (!events) return;
    if (events.some((e) => e.type === "deal")) {
      this.tables.set(game, project(answer.state));
    } else {
      this.tables.set(game, applyEvents(this.tables.get(game), events));
    }
    this.onEvents?.(game, events, this.tables.get(game));
  }

  failAll(err) {
    for (const [id, waiting] of this.pending) {
      this.pending.delete(id);
      waiting.reject(err);
    }
  }

  /** quit (answered once the requests running have ended), then waits for the exit (10 s at
   * most: then the server is stopped, and that is an error). */
  async quit() {
    await this.request("quit");
    this.child.stdin.end();
    const timer = setTimeout(() => this.kill(), 10_000);
    const [code, signal] = await this.exited;
    clearTimeout(timer);
    if (code !== 0) throw new Error(`the server exited with code ${code}, signal ${signal}`);
  }

  /** Stops the server at once (after a failure). */
  kill() {
    if (this.child.exitCode === null) this.child.kill();
  }
}

// ---- the demo -----------------------------------------------------------------------------

const MSC_DEAL = "PY1-M-AAAAABS"; // winnable (msc: remove the pyramid, two redeals)
const BATCH = ["PY1-M-AAAAABS", "PY1-N-AAAAAAS", "PY1-D-AAAAABS", "PY1-U-AAAAABU", "PY1-T-AAAAACB"];
const LONG = "PY1-N-COTJWDZ"; // its shortest win takes about 4 s to prove, here

/** The event-built table of a game against the server's state: fail loudly on a difference. */
async function checkTable(client, game, when) {
  const { state } = await client.request("state", { game });
  assert.deepStrictEqual(
    client.tables.get(game),
    project(state),
    `${game} ${when}: the table built from events differs from the server's state`,
  );
}

/** A change that must have happened: a refused move answers ok with no events. */
async function change(client, op, fields) {
  const answer = await client.request(op, fields);
  if (answer.events.length === 0) {
    const said = answer.messages.map((m) => `${m.code}: ${m.text}`).join("; ");
    throw new Error(`${op} ${JSON.stringify(fields)} changed nothing (${said})`);
  }
  return answer;
}

const ms = (t0) => Math.round(performance.now() - t0);

async function demo() {
  const client = await PyramidClient.start({
    onEvents: (game, events) => {
      for (const e of events) console.log(`  ${game} ${describeEvent(e)}`);
    },
  });
  console.log(`server ${client.hello.version}, protocol ${client.hello.protocol}`);
  try {
    // a. one game of msc, always a winning move, the table checked against the server's
    const { game } = await client.request("new", { code: MSC_DEAL });
    console.log(`${game}: ${MSC_DEAL} (msc)`);
    let played = 0;
    while (client.tables.get(game).status === "playing") {
      const { result } = await client.request("analyze", { game, queries: ["winning_moves"] });
      const [move] = result.winning_moves ?? [];
      if (move === undefined) throw new Error(`${game}: no winning move at move ${played}`);
      const before = client.tables.get(game).moves;
      console.log(`${game} play ${move}`);
      await change(client, "play", { game, move });
      played += 1;
      if (client.tables.get(game).moves <= before) {
        throw new Error(`${game}: ${move}: the moves counter stayed`);
      }
      if (played % 10 === 0) await checkTable(client, game, `after ${played} moves`);
      if (played > 500) throw new Error(`${game}: not over after 500 moves`);
    }
    await checkTable(client, game, "at the end");
    const status = client.tables.get(game).status;
    if (status !== "won") throw new Error(`${game}: ended ${status}, not won`);
    console.log(`${game}: ${status} in ${played} moves, score ${client.tables.get(game).score}`);

    // b. undo twice (the win taken back: its events reversed), redo twice
    for (const op of ["undo", "undo", "redo", "redo"]) {
      console.log(`${game} ${op}`);
      await change(client, op, { game });
      await checkTable(client, game, `after ${op}`);
    }
    if (client.tables.get(game).status !== "won") throw new Error(`${game}: redo did not win`);

    // c. a batch: each position's answer as it is done, then the final line
    const positions = BATCH.map((code) => ({ code }));
    const seen = [];
    const batch = await client.request(
      "analyze",
      { positions, queries: ["winnable", "shortest"] },
      (line) => {
        seen.push(line.index);
        const { winnable, shortest, seconds } = line.result;
        const moves = shortest === null ? "-" : shortest.moves;
        console.log(
          `batch ${line.index} ${BATCH[line.index]}: winnable ${winnable}, shortest ${moves} ` +
            `(${seconds} s)`,
        );
      },
    );
    seen.sort((a, b) => a - b);
    assert.deepStrictEqual(seen, [0, 1, 2, 3, 4], "batch: the partial answers' indices");
    assert.equal(batch.done, BATCH.length, "batch: done");

    // another game, and a request it refuses (a ProtocolError: code, field)
    const other = (await client.request("new", { code: "PY1-N-AAAAAAS" })).game;
    const refused = await client.request("tap", { game: other, target: 99 }).catch((e) => e);
    if (!(refused instanceof ProtocolError) || refused.field !== "target") {
      throw new Error(`tap 99: not refused on its target: ${refused.message ?? "answered ok"}`);
    }
    console.log(`tap 99 refused: ${refused.code} (field ${refused.field})`);

    // d. a long analysis, cancelled; a tap on the other game answers meanwhile
    let started;
    const running = new Promise((resolve) => (started = resolve));
    const t0 = performance.now();
    const long = client.request(
      "analyze",
      { position: { code: LONG }, queries: ["shortest"], budget: { seconds: 30 }, progress: 0.1 },
      (line) => started(line.progress),
    );
    const outcome = long.then(
      (answer) => ({ answer, at: performance.now() }),
      (error) => ({ error, at: performance.now() }),
    );
    const first = await Promise.race([running, outcome]);
    if (first.at !== undefined) throw new Error(`${LONG}: analysis ended before the cancel`);
    console.log(`analysis ${long.id} running (progress after ${ms(t0)} ms)`);
    let t = performance.now();
    await change(client, "tap", { game: other, target: "stock" });
    const tapMs = ms(t);
    t = performance.now();
    await checkTable(client, other, "during the analysis");
    const stateMs = ms(t);
    console.log(`during the analysis: tap ${tapMs} ms, state ${stateMs} ms`);
    const tCancel = performance.now();
    const said = await client.request("cancel", { request: long.id });
    const end = await outcome;
    const cancelMs = Math.round(end.at - tCancel);
    if (end.error?.code !== "cancelled") {
      throw new Error(`${LONG}: not cancelled: ${end.error ?? JSON.stringify(end.answer.result)}`);
    }
    if (said.cancelled !== true) throw new Error(`cancel answered ${JSON.stringify(said)}`);
    console.log(`analysis ${long.id} cancelled after ${cancelMs} ms (it ran ${ms(t0)} ms)`);

    // e. quit, and the server's exit
    await client.quit();
    console.log(
      `summary: moves ${played}, cancel ${cancelMs} ms, tap ${tapMs} ms, state ${stateMs} ms`,
    );
  } catch (err) {
    client.kill();
    throw err;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  demo().then(
    () => {
      console.log("OK");
      process.exit(0);
    },
    (err) => {
      console.log(`FAILED: ${err.stack ?? err}`);
      process.exit(1);
    },
  );
}
