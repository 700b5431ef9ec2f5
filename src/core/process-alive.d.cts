/** True when a process with this id is running (signal 0 probes without sending anything). */
export declare function processAlive(pid: number): boolean;
