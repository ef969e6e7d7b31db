/**
 * The TypeScript compiler's API, imported here once for the whole core. A bundle gives each module
 * that imports a CommonJS package its own interop object, a copy of every export (TypeScript has
 * thousands): seven copies at every start of a command, some 15 ms. Modules import `ts` from here.
 */
import ts from "typescript";

export default ts;
