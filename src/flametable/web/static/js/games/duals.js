export { render } from "./generic.js";
