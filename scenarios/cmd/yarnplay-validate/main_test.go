package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestValidate(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"-nodes", "4", "-node-mb", "8192", "-node-vcores", "4", "../../testdata/capacity-scheduler.xml"}, &out, &errOut))
	require.Equal(t, `OK ../../testdata/capacity-scheduler.xml: Hadoop accepts this configuration (hadoop-3 rules).

On 4 nodes of 8192 MB and 4 vcores (cluster <memory:32768, vCores:16>):

queue          state    capacity  maximum-capacity  absolute capacity  absolute maximum  guaranteed           maximum
root           RUNNING  100.00%   100.00%           100.00%            100.00%           32768 MB, 16 vcores  32768 MB, 16 vcores
  engineering  RUNNING  60.00%    80.00%            60.00%             80.00%            19660 MB, 9 vcores   26214 MB, 12 vcores
    dev        RUNNING  25.00%    100.00%           15.00%             80.00%            4915 MB, 2 vcores    26214 MB, 12 vcores
    prod       RUNNING  75.00%    100.00%           45.00%             80.00%            14745 MB, 7 vcores   26214 MB, 12 vcores
  finance      RUNNING  40.00%    100.00%           40.00%             100.00%           13107 MB, 6 vcores   32768 MB, 16 vcores
`, out.String())

	out.Reset()
	require.Equal(t, 1, run([]string{"../../testdata/capacity-scheduler-bad.xml"}, &out, &errOut))
	require.Equal(t, "REFUSED ../../testdata/capacity-scheduler-bad.xml: Hadoop would not start with this configuration:\n"+
		"  Illegal capacity of 0.95 for children of queue engineering\n", out.String())

	require.Equal(t, 2, run(nil, &out, &errOut))
	require.Equal(t, 2, run([]string{"missing.xml"}, &out, &errOut))
	require.Equal(t, 2, run([]string{"-profile", "hadoop-9", "../../testdata/capacity-scheduler.xml"}, &out, &errOut))
}
