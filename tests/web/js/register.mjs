// node --import ./register.mjs --test ...: the client's modules importable in Node (hooks.mjs).
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);
