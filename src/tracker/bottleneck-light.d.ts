// bottleneck ships types for its main entry only; its light build (the one Octokit's plugins
// load, without Redis clustering) has the same API.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck'
  export default Bottleneck
}
