import { EventEmitter } from 'node:events';
import { passOnCtrlCOnce } from './ctrl-c-once';

describe("npm start's launcher passes a Ctrl-C on once", () => {
  function launcher() {
    const emitter = new EventEmitter();
    const passedOn: string[] = [];
    emitter.on('SIGINT', (signal: string) => passedOn.push(signal));
    let clock = 0;
    passOnCtrlCOnce(emitter as unknown as NodeJS.Process, 3000, () => clock);
    return {
      passedOn,
      at(ms: number) {
        clock = ms;
        emitter.emit('SIGINT', 'SIGINT');
      },
    };
  }

  it("drops npm's late copy of a Ctrl-C, even 2.5 s after the terminal's", () => {
    const ctrlC = launcher();
    ctrlC.at(0);
    ctrlC.at(2_500);
    expect(ctrlC.passedOn).toEqual(['SIGINT']);
  });

  it('passes on a Ctrl-C pressed again later, which makes a stopping app exit at once', () => {
    const ctrlC = launcher();
    ctrlC.at(0);
    ctrlC.at(1_200);
    ctrlC.at(4_000);
    expect(ctrlC.passedOn).toEqual(['SIGINT', 'SIGINT']);
  });
});
