package main

import (
	"os"
	"regexp"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestIntegratorsCronJob: the CronJob of docs/integrators.md is valid YAML
// and keeps what the page promises: never two runs at once, the token and
// the journal URL from secrets, no retry where one cannot help.
func TestIntegratorsCronJob(t *testing.T) {
	doc, err := os.ReadFile("../../docs/integrators.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) != 1 {
		t.Fatalf("%d yaml blocks in docs/integrators.md, want the one CronJob", len(blocks))
	}
	type envVar struct {
		Name      string `yaml:"name"`
		Value     *string
		ValueFrom *struct {
			SecretKeyRef *struct{ Name, Key string } `yaml:"secretKeyRef"`
		} `yaml:"valueFrom"`
	}
	var cj struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Spec       struct {
			ConcurrencyPolicy string `yaml:"concurrencyPolicy"`
			JobTemplate       struct {
				Spec struct {
					PodFailurePolicy *struct {
						Rules []struct {
							Action      string `yaml:"action"`
							OnExitCodes struct {
								ContainerName string `yaml:"containerName"`
								Operator      string `yaml:"operator"`
								Values        []int  `yaml:"values"`
							} `yaml:"onExitCodes"`
						} `yaml:"rules"`
					} `yaml:"podFailurePolicy"`
					Template struct {
						Spec struct {
							RestartPolicy string `yaml:"restartPolicy"`
							Containers    []struct {
								Name string   `yaml:"name"`
								Args []string `yaml:"args"`
								Env  []envVar `yaml:"env"`
							} `yaml:"containers"`
						} `yaml:"spec"`
					} `yaml:"template"`
				} `yaml:"spec"`
			} `yaml:"jobTemplate"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(blocks[0][1], &cj); err != nil {
		t.Fatalf("the CronJob is not YAML: %v", err)
	}
	js := cj.Spec.JobTemplate.Spec
	if cj.APIVersion != "batch/v1" || cj.Kind != "CronJob" || cj.Spec.ConcurrencyPolicy != "Forbid" {
		t.Errorf("CronJob %s %s, concurrencyPolicy %q: want batch/v1 CronJob, Forbid", cj.APIVersion, cj.Kind, cj.Spec.ConcurrencyPolicy)
	}
	pod := js.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers, want nxbatch alone", len(pod.Containers))
	}
	c := pod.Containers[0]
	if len(c.Args) == 0 || c.Args[0] != "run" {
		t.Errorf("args %q, want a run", c.Args)
	}
	secret := map[string]bool{}
	for _, v := range c.Env {
		secret[v.Name] = v.Value == nil && v.ValueFrom != nil && v.ValueFrom.SecretKeyRef != nil &&
			v.ValueFrom.SecretKeyRef.Name != "" && v.ValueFrom.SecretKeyRef.Key != ""
	}
	for _, name := range []string{"NX_TOKEN", "NXBATCH_JOURNAL"} {
		if !secret[name] {
			t.Errorf("%s does not come from a secret", name)
		}
	}
	if p := js.PodFailurePolicy; p != nil {
		if pod.RestartPolicy != "Never" {
			t.Errorf("a podFailurePolicy needs restartPolicy Never, not %q", pod.RestartPolicy)
		}
		for _, r := range p.Rules {
			for _, code := range r.OnExitCodes.Values {
				if code == exitAborted || r.OnExitCodes.ContainerName != c.Name || r.OnExitCodes.Operator != "In" {
					t.Errorf("podFailurePolicy rule %+v: want FailJob In the codes a retry cannot help, never %d, for container %s", r, exitAborted, c.Name)
				}
			}
		}
	}
}
