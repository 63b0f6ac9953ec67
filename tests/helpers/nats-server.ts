// A private nats-server on a random loopback port, for tests that need the real thing. The
// launcher lives in sim/ because `orchsim bench` starts one too.
export { checkNatsConfig, startNatsServer, type NatsServer } from '../../sim/nats-server.ts';
