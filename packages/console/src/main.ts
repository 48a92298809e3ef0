// The console as the server serves it at /console: the API is this origin's /v2.
import { startConsole } from "./start.tsx";

startConsole();
