// The reference firmware on MicroPython's WebAssembly port (npm @micropython/micropython-webassembly-pyscript,
// pinned in package-lock.json), as a board: the link on stdin/stdout (the test bridges them to a pty),
// commands of the physical world as JSON lines on CONTROL_FD, their answers as "reply JSON" lines on stderr.
// node vm.mjs FIRMWARE_DIR FAKES_DIR HARNESS_DIR CONFIG_JSON HEAP_BYTES RESET_CAUSE CONTROL_FD
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";

const [firmware, fakes, harness, config, heapsize, cause, control] = process.argv.slice(2);
const say = (line) => process.stderr.write(line + "\n");
const mp = await loadMicroPython({ heapsize: Number(heapsize), stdout: (l) => say("py " + l),
                                   stderr: (l) => say("py " + l) });
const put = (from, to) => {
    for (const name of fs.readdirSync(from).filter((n) => n.endsWith(".py") && n !== "__init__.py")) {
        mp.FS.writeFile(path.join(to, name), fs.readFileSync(path.join(from, name)));
    }
};
for (const folder of ["/fw", "/fw/firmware_bridge", "/fw/firmware_bridge/firmware_host"]) mp.FS.mkdir(folder);
put(firmware, "/fw");
put(fakes, "/fw/firmware_bridge/firmware_host");
mp.FS.writeFile("/fw/vmboard.py", fs.readFileSync(path.join(harness, "vmboard.py")));
mp.FS.writeFile("/fw/__future__.py", "annotations = None\n");   // MicroPython has no __future__ module
mp.FS.writeFile("/fw/firmware_bridge/__init__.py", "");
mp.FS.writeFile("/fw/firmware_bridge/firmware_host/__init__.py", "");
mp.runPython("import sys, os\nsys.path.insert(0, '/fw')\nos.chdir('/fw')\n"
             + "os.urandom = lambda n: bytes(range(1, n + 1))  # the rp2 port's os has urandom\n");
const board = mp.pyimport("vmboard");
try {
    board.start(config, Number(cause));
} catch (error) {
    say("error " + (error.type || "") + " " + error.message.replace(/\n/g, " | "));
    process.exit(1);
}

let input = [];
let timer = null;
let steps = 0;
function run() {
    timer = null;
    if (++steps % 100 === 0) board.live();   // the most held live, in a call of its own
    const data = input.map((chunk) => chunk.toString("hex")).join("");
    input = [];
    let out, wait;
    try {
        [out, wait] = board.step(data).split(" ");
    } catch (error) {
        say("error " + (error.type || "") + " " + error.message.replace(/\n/g, " | "));
        process.exit(1);
    }
    if (out) process.stdout.write(Buffer.from(out, "hex"));
    timer = setTimeout(run, Number(wait));
}
const link = fs.createReadStream(null, { fd: 0 });
link.on("data", (chunk) => {
    input.push(chunk);
    if (timer !== null) clearTimeout(timer);
    timer = setImmediate(run);
});
link.on("end", () => process.exit(0));
readline.createInterface({ input: fs.createReadStream(null, { fd: Number(control) }) }).on("line", (line) => {
    try {
        const request = JSON.parse(line);
        if (request.cmd === "polls") {        // one call a poll: the port collects garbage between calls
            for (let i = 0; i < request.count; i++) {
                board.poll_alone();
                if (i % 100 === 99) board.live();
            }
            say("reply {}");
        } else {
            say("reply " + board.command(line));
        }
    } catch (error) {
        say("error " + (error.type || "") + " " + error.message.replace(/\n/g, " | "));
        process.exit(1);
    }
});
run();
